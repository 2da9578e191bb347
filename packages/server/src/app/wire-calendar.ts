import type { AuditLog } from '../audit/audit-log.js';
import { CalendarAccess } from '../calendar/calendar-access.js';
import { CalendarConnections } from '../calendar/calendar-connections.js';
import { CalendarConsent, type CalendarAccounts } from '../calendar/calendar-consent.js';
import { CalendarConsentStates } from '../calendar/consent-states.js';
import type { SvcConfig } from '../config/resolve.js';
import type { OidcConnections } from '../federation/oidc/enabled-connections.js';
import type { OidcRelyingParty } from '../federation/oidc/relying-party.js';
import type { Clock } from '../kernel/clock.js';
import type { SecretBox } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import type { DirectSignIn } from '../signin/direct-sign-in.js';
import type { HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { BrowserSessions } from '../signin/browser-sessions.js';
import type { Db } from '../storage/database.js';
import { calendarConnectionRepository } from '../storage/repositories/calendar-connections.js';
import { calendarConsentStateRepository } from '../storage/repositories/calendar-consent-states.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { userRepository } from '../storage/repositories/users.js';
import { SvcCalendarService } from './facades/svc-calendar-service.js';

export interface WireCalendarContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'issuer' | 'calendar'>;
  /** The enabled provider connections calendar consents go through. */
  readonly connections: Pick<OidcConnections, 'findEnabled'>;
  /** The sign-in's relying party: one provider metadata cache and one set of upstream HTTP rules. */
  readonly relyingParty: OidcRelyingParty;
  /** The direct helpers' first-party sessions (the direct calendar routes). */
  readonly direct: Pick<DirectSignIn, 'requireFirstPartySession'>;
  /** The limit on refused handed-out tokens (the consent's callback states). */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly browserSessions: BrowserSessions;
  readonly secretBox: SecretBox;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Calendar connections: the public facade, and the consent the callback route finishes. */
export interface CalendarWiring {
  readonly facade: SvcCalendarService;
  readonly consent: CalendarConsent;
}

/**
 * Calendar connections over the provider connections: every provider sends the user back to
 * `{issuer}/calendar/callback`, which the operator lists among the connection's allowed callback URIs.
 */
export function wireCalendar(ctx: WireCalendarContext): CalendarWiring {
  const { db, clock, ids, audit, relyingParty, connections } = ctx;
  const users = userRepository(db);
  const clients = clientRepository(db);
  const accounts: CalendarAccounts = {
    findUser: (userId) => users.findById(userId),
    findClient: (clientId) => clients.findByClientId(clientId),
  };
  const repository = calendarConnectionRepository(db);
  const secrets = ctx.secretBox;
  const consent = new CalendarConsent({
    connections,
    relyingParty,
    states: new CalendarConsentStates({ repository: calendarConsentStateRepository(db), secrets, clock }),
    tokenChecks: ctx.tokenChecks,
    repository,
    accounts,
    secrets,
    audit,
    clock,
    ids,
    browserSessions: ctx.browserSessions,
    callbackUri: `${ctx.config.issuer}/calendar/callback`,
    consentPageUri: `${ctx.config.issuer}/calendar/consent`,
  });
  const facade = new SvcCalendarService({
    enabled: ctx.config.calendar.enabled,
    consent,
    access: new CalendarAccess({ repository, connections, relyingParty, accounts, secrets, audit, clock }),
    connections: new CalendarConnections({
      repository,
      connections,
      relyingParty,
      accounts,
      secrets,
      audit,
      clock,
    }),
    sessions: ctx.direct,
  });
  return { facade, consent };
}
