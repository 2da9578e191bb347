import type { CalendarProviderType } from '@svc/contract';
import { SvcValidationError } from '../kernel/errors.js';

const GOOGLE = 'https://www.googleapis.com/auth/calendar';
const GRAPH_PREFIX = 'https://graph.microsoft.com/';

/** What a consent asks each provider for. */
interface CalendarScopeRules {
  /** Always asked besides the calendar scopes: who the account is (and Microsoft's refresh token). */
  readonly base: readonly string[];
  /** The calendar scopes asked when the caller names none. */
  readonly defaults: readonly string[];
  /** The calendar scopes a caller may name: the provider's calendar API, nothing else of the account. */
  readonly allowed: readonly string[];
  /** Authorization parameters besides the protocol's own. */
  readonly parameters: Readonly<Record<string, string>>;
}

export const CALENDAR_SCOPE_RULES: Readonly<Record<CalendarProviderType, CalendarScopeRules>> = {
  Google: {
    base: ['openid', 'email'],
    defaults: [`${GOOGLE}.events`],
    allowed: [
      GOOGLE,
      `${GOOGLE}.readonly`,
      `${GOOGLE}.events`,
      `${GOOGLE}.events.readonly`,
      `${GOOGLE}.events.owned`,
      `${GOOGLE}.events.owned.readonly`,
      `${GOOGLE}.events.freebusy`,
      `${GOOGLE}.freebusy`,
      `${GOOGLE}.calendarlist.readonly`,
      `${GOOGLE}.settings.readonly`,
      `${GOOGLE}.app.created`,
    ],
    // Google issues a refresh token only for access_type=offline, and again on a repeated consent only
    // with prompt=consent.
    parameters: { access_type: 'offline', prompt: 'consent' },
  },
  Microsoft: {
    base: ['openid', 'email', 'offline_access'],
    defaults: ['Calendars.ReadWrite'],
    allowed: [
      'Calendars.Read',
      'Calendars.ReadBasic',
      'Calendars.ReadWrite',
      'Calendars.Read.Shared',
      'Calendars.ReadWrite.Shared',
    ],
    parameters: {},
  },
};

/** The calendar scopes of a consent: the caller's (each allowed for the provider) or the default. */
export function calendarScopesFor(
  providerType: CalendarProviderType,
  requested: readonly string[] | null,
): readonly string[] {
  const rules = CALENDAR_SCOPE_RULES[providerType];
  if (requested === null) return rules.defaults;
  const refused = requested.filter((scope) => !rules.allowed.includes(scope));
  if (refused.length > 0) {
    throw new SvcValidationError(
      `Invalid calendar consent: scopes: ${refused.join(', ')} ${refused.length === 1 ? 'is not a' : 'are not'} ${providerType} calendar scope${refused.length === 1 ? '' : 's'}.`,
      [{ path: 'scopes', message: `must be ${providerType} calendar scopes: ${rules.allowed.join(', ')}` }],
    );
  }
  return requested;
}

/** Microsoft names Graph's scopes with or without Graph's URL, in any case. */
function comparable(providerType: CalendarProviderType, scope: string): string {
  if (providerType !== 'Microsoft') return scope;
  const lower = scope.toLowerCase();
  return lower.startsWith(GRAPH_PREFIX) ? lower.slice(GRAPH_PREFIX.length) : lower;
}

/**
 * What the provider granted (its token answer's `scope`; the scopes asked when it says nothing, as
 * RFC 6749 §5.1 allows) and which asked calendar scopes it left out (Google's consent screen lets the
 * user untick them).
 */
export function grantedScopes(
  providerType: CalendarProviderType,
  asked: readonly string[],
  answered: string | null,
): { readonly granted: readonly string[]; readonly missing: readonly string[] } {
  if (answered === null) {
    return { granted: [...CALENDAR_SCOPE_RULES[providerType].base, ...asked], missing: [] };
  }
  const granted = [...new Set(answered.split(' ').filter((scope) => scope !== ''))];
  const held = new Set(granted.map((scope) => comparable(providerType, scope)));
  return { granted, missing: asked.filter((scope) => !held.has(comparable(providerType, scope))) };
}

/** Whether a provider connection's type can hold a calendar connection. */
export function isCalendarProvider(type: string): type is CalendarProviderType {
  return type === 'Google' || type === 'Microsoft';
}
