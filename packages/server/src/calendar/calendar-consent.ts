import type { CalendarCallbackError, CalendarProviderType, SvcCalendarAuthorization } from '@svc/contract';
import type { AuditLog } from '../audit/audit-log.js';
import type { OidcConnection, OidcConnections } from '../federation/oidc/enabled-connections.js';
import type { OidcRedemption, OidcRelyingParty } from '../federation/oidc/relying-party.js';
import { OidcRelyingPartyError } from '../federation/oidc/rp-errors.js';
import { toIso, type Clock } from '../kernel/clock.js';
import { safeEqual, sha256Hex, type SecretBox } from '../kernel/crypto.js';
import { SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { BrowserSessions } from '../signin/browser-sessions.js';
import {
  CALENDAR_SCOPE_RULES,
  calendarScopesFor,
  grantedScopes,
  isCalendarProvider,
} from './calendar-scopes.js';
import { openConsentLink, sealConsentLink, type CalendarConsentLink } from './consent-links.js';
import {
  CALENDAR_CONSENT_LIFETIME_MS,
  type CalendarConsentInFlight,
  type CalendarConsentStates,
} from './consent-states.js';
import { SvcCalendarError } from './errors.js';
import type { CalendarConnectionRepository } from './repository.js';
import { checkReturnUri, returnUrl, type CalendarConsentOutcome } from './return-uri.js';
import { expiryOf, storeConsent } from './store-consent.js';

/** The accounts a consent is for: the directory's users and clients. */
export interface CalendarAccounts {
  findUser(userId: string): Promise<{ readonly active: boolean } | undefined>;
  findClient(
    clientId: string,
  ): Promise<{ readonly active: boolean; readonly redirectUris: readonly string[] } | undefined>;
}

export interface CalendarConsentDeps {
  readonly connections: Pick<OidcConnections, 'findEnabled'>;
  readonly relyingParty: Pick<OidcRelyingParty, 'start' | 'redeem'>;
  readonly states: Pick<CalendarConsentStates, 'begin' | 'take'>;
  /** Callback states that continue nothing, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly repository: Pick<CalendarConnectionRepository, 'insert' | 'findByAccount' | 'reconnect'>;
  readonly accounts: CalendarAccounts;
  readonly secrets: Pick<SecretBox, 'encrypt' | 'decrypt'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Pick<Ids, 'id'>;
  /** Who the browser's issuer session signs in: the user a consent is for must be signed in there. */
  readonly browserSessions: Pick<BrowserSessions, 'resolve'>;
  /** Svc's own callback, `{issuer}/calendar/callback`, where every provider sends the user back. */
  readonly callbackUri: string;
  /** Svc's consent page, `{issuer}/calendar/consent`, that a consent's authorization URL opens. */
  readonly consentPageUri: string;
}

/** The browser at Svc's consent page or callback: its antiforgery id and its issuer session cookie. */
export interface CalendarBrowser {
  readonly browserId: string | undefined;
  readonly sessionToken: string | undefined;
}

/** A consent to start: the user it is for, the app they return to, and what to ask. */
export interface CalendarConsentStart {
  readonly userId: string;
  readonly clientId: string;
  readonly connectionId: string;
  readonly returnUri: string;
  /** The calendar scopes to ask for; null for the provider's default. */
  readonly scopes: readonly string[] | null;
}

/** Where the callback sends the browser, and an unexpected failure for the route to log. */
export interface CalendarCallbackResult {
  readonly redirectUrl: string;
  readonly unexpected?: unknown;
}

/**
 * The consent to a user's calendar at Google or Microsoft, bound to the user's browser and to the user
 * signed in there (RFC 6749 §10.12; docs/reference/calendar.md "Bound to the browser and its user"): `start`
 * checks the consent and answers a sealed link to Svc's consent page; `open`, in the browser that follows it,
 * requires the issuer session of the consent's user, then sends the browser to the provider with the
 * calendar scopes (and what the provider needs to issue a refresh token), remembering the consent by its
 * state and that browser; `finish` takes the callback once and, only in that browser and still for that
 * user, redeems the code and keeps the tokens sealed. From the moment the link opens the browser always
 * goes back to the app's returnUri, with `calendarConnectionId` or `error`.
 */
export class CalendarConsent {
  readonly #deps: CalendarConsentDeps;

  constructor(deps: CalendarConsentDeps) {
    this.#deps = deps;
  }

  /** The link the user's browser opens for the consent (Svc's consent page), and when it expires. */
  async start(input: CalendarConsentStart): Promise<SvcCalendarAuthorization> {
    const { accounts } = this.#deps;
    if ((await accounts.findUser(input.userId))?.active !== true) {
      throw new SvcNotFoundError('There is no active user with this id.');
    }
    const client = await accounts.findClient(input.clientId);
    if (client?.active !== true) {
      throw new SvcValidationError('Invalid calendar consent: clientId: no active client has this id.', [
        { path: 'clientId', message: 'no active client has this id' },
      ]);
    }
    checkReturnUri(input.returnUri, client.redirectUris);
    const { connection, providerType } = await this.#calendarConnection(input.connectionId);
    const link: CalendarConsentLink = {
      userId: input.userId,
      clientId: input.clientId,
      connectionId: connection.id,
      returnUri: input.returnUri,
      scopes: calendarScopesFor(providerType, input.scopes),
      expiresAt: this.#deps.clock.now() + CALENDAR_CONSENT_LIFETIME_MS,
    };
    const page = new URL(this.#deps.consentPageUri);
    page.searchParams.set('token', sealConsentLink(this.#deps.secrets, link));
    return { authorizationUrl: page.href, expiresAt: toIso(link.expiresAt) };
  }

  /**
   * Svc's consent page, in the browser that opened the link: to the provider when that browser holds an
   * issuer session of the consent's user (the consent then bound to this browser), else back to the app
   * with `login_required`. Throws `invalid_state` for a link that is forged, changed or expired.
   */
  async open(
    sealedLink: string | null,
    browser: CalendarBrowser & { readonly browserId: string },
    context: { readonly ipAddress?: string } = {},
  ): Promise<CalendarCallbackResult> {
    const link =
      sealedLink === null
        ? undefined
        : openConsentLink(this.#deps.secrets, sealedLink, this.#deps.clock.now());
    if (link === undefined) {
      throw new SvcCalendarError(
        'invalid_state',
        'This calendar consent link is no longer valid: it expired or was changed. Start again from the app.',
      );
    }
    try {
      if (!(await this.#signedInAs(browser, link.userId))) {
        return {
          redirectUrl: returnUrl(link.returnUri, await this.#failed(link, 'login_required', {}, context)),
        };
      }
      const connection = await this.#deps.connections.findEnabled(link.connectionId);
      if (connection === undefined || !isCalendarProvider(connection.providerType)) {
        const outcome = await this.#failed(link, 'connection_unavailable', {}, context);
        return { redirectUrl: returnUrl(link.returnUri, outcome) };
      }
      const rules = CALENDAR_SCOPE_RULES[connection.providerType];
      const start = await this.#deps.relyingParty.start(connection, {
        redirectUri: this.#deps.callbackUri,
        scopes: [...rules.base, ...link.scopes],
        extraParameters: rules.parameters,
      });
      if (start.codeVerifier === null) throw new Error('A consent Svc starts holds its own PKCE verifier.');
      await this.#deps.states.begin(start.state, {
        userId: link.userId,
        clientId: link.clientId,
        connectionId: link.connectionId,
        returnUri: link.returnUri,
        scopes: link.scopes,
        redirectUri: this.#deps.callbackUri,
        nonce: start.nonce,
        codeVerifier: start.codeVerifier,
        browserBinding: sha256Hex(browser.browserId),
      });
      return { redirectUrl: start.authorizationUrl };
    } catch (error) {
      if (error instanceof OidcRelyingPartyError) {
        const outcome = await this.#failed(link, callbackError(error), { reason: error.code }, context);
        return { redirectUrl: returnUrl(link.returnUri, outcome) };
      }
      return { redirectUrl: returnUrl(link.returnUri, { error: 'server_error' }), unexpected: error };
    }
  }

  /**
   * The provider's callback: the consent it continues, taken once, and where the browser goes now.
   * Throws `invalid_state` when the state is unknown, used or expired: nothing then says where to go.
   */
  async finish(
    callback: URLSearchParams,
    browser: CalendarBrowser,
    context: { readonly ipAddress?: string } = {},
  ): Promise<CalendarCallbackResult> {
    const state = callback.get('state');
    const inFlight =
      state === null || state === ''
        ? undefined
        : await lookUpHandedOut(this.#deps.tokenChecks, context.ipAddress, () =>
            this.#deps.states.take(state),
          );
    if (state === null || inFlight === undefined) {
      throw new SvcCalendarError(
        'invalid_state',
        'This calendar consent is no longer valid: it expired or was already used. Start again from the app.',
      );
    }
    try {
      const outcome = await this.#complete(inFlight, state, callback, browser, context);
      return { redirectUrl: returnUrl(inFlight.returnUri, outcome) };
    } catch (error) {
      return { redirectUrl: returnUrl(inFlight.returnUri, { error: 'server_error' }), unexpected: error };
    }
  }

  async #complete(
    inFlight: CalendarConsentInFlight,
    state: string,
    callback: URLSearchParams,
    browser: CalendarBrowser,
    context: { readonly ipAddress?: string },
  ): Promise<CalendarConsentOutcome> {
    // Before any code is redeemed: the user must still be signed in here, in the browser that opened
    // the link (a callback carried to another browser would store its account on this consent's user).
    if (!(await this.#signedInAs(browser, inFlight.userId))) {
      return this.#failed(inFlight, 'login_required', {}, context);
    }
    const binding = inFlight.browserBinding;
    if (
      binding === null ||
      browser.browserId === undefined ||
      !safeEqual(binding, sha256Hex(browser.browserId))
    ) {
      return this.#failed(inFlight, 'invalid_callback', { reason: 'another_browser' }, context);
    }
    const connection = await this.#deps.connections.findEnabled(inFlight.connectionId);
    const user = await this.#deps.accounts.findUser(inFlight.userId);
    const failed = (error: CalendarCallbackError, data: Record<string, unknown> = {}) =>
      this.#failed(
        inFlight,
        error,
        { ...data, ...(connection ? { providerType: connection.providerType } : {}) },
        context,
      );
    // Disabled, or its user deactivated, while the user was at the provider: nothing is redeemed.
    if (connection === undefined || !isCalendarProvider(connection.providerType) || user?.active !== true) {
      return failed('connection_unavailable');
    }
    let redemption: OidcRedemption;
    try {
      redemption = await this.#deps.relyingParty.redeem(connection, {
        callback,
        expectedState: state,
        redirectUri: inFlight.redirectUri,
        expectedNonce: inFlight.nonce,
        codeVerifier: inFlight.codeVerifier,
      });
    } catch (error) {
      if (!(error instanceof OidcRelyingPartyError)) throw error;
      return failed(callbackError(error), {
        reason: error.code,
        ...(error.providerError === null ? {} : { providerError: error.providerError }),
      });
    }
    const { granted, missing } = grantedScopes(
      connection.providerType,
      inFlight.scopes,
      redemption.tokens.scope,
    );
    if (missing.length > 0) return failed('insufficient_scope', { missingScopes: missing });
    const stored = await storeConsent(this.#deps, {
      userId: inFlight.userId,
      connectionId: connection.id,
      providerType: connection.providerType,
      redemption,
      scopes: granted,
      accessTokenExpiresAt: expiryOf(this.#deps.clock.now(), redemption.tokens.expiresIn),
    });
    await this.#deps.audit.record({
      kind: stored.created ? 'calendar.connection.created' : 'calendar.connection.reconnected',
      actorType: 'user',
      actorId: inFlight.userId,
      userId: inFlight.userId,
      clientId: inFlight.clientId,
      ...(context.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
      data: {
        calendarConnectionId: stored.id,
        connectionId: connection.id,
        providerType: connection.providerType,
        scopes: granted,
        offlineAccess: stored.offlineAccess,
      },
    });
    return { calendarConnectionId: stored.id };
  }

  /** The enabled Google or Microsoft connection that lists Svc's calendar callback. */
  async #calendarConnection(
    connectionId: string,
  ): Promise<{ connection: OidcConnection; providerType: CalendarProviderType }> {
    const connection = await this.#deps.connections.findEnabled(connectionId);
    const refuse = (message: string) =>
      new SvcValidationError(`Invalid calendar consent: connectionId: ${message}.`, [
        { path: 'connectionId', message },
      ]);
    if (connection === undefined || !isCalendarProvider(connection.providerType)) {
      throw refuse('must be an enabled Google or Microsoft connection');
    }
    if (!connection.allowedCallbackUris.includes(this.#deps.callbackUri)) {
      throw refuse(`the connection must list ${this.#deps.callbackUri} among its allowed callback URIs`);
    }
    return { connection, providerType: connection.providerType };
  }

  /** Whether the browser's issuer session is live and signs `userId` in. */
  async #signedInAs(browser: CalendarBrowser, userId: string): Promise<boolean> {
    return (await this.#deps.browserSessions.resolve(browser.sessionToken))?.userId === userId;
  }

  async #failed(
    inFlight: Pick<CalendarConsentInFlight, 'userId' | 'clientId' | 'connectionId'>,
    error: CalendarCallbackError,
    data: Record<string, unknown>,
    context: { readonly ipAddress?: string },
  ): Promise<CalendarConsentOutcome> {
    await this.#deps.audit.record({
      kind: 'calendar.connection.failed',
      actorType: 'user',
      actorId: inFlight.userId,
      userId: inFlight.userId,
      clientId: inFlight.clientId,
      ...(context.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
      data: { connectionId: inFlight.connectionId, error, ...data },
    });
    return { error };
  }
}

/** The `error` the app gets for a provider answer the relying party refused. */
function callbackError(error: OidcRelyingPartyError): CalendarCallbackError {
  switch (error.code) {
    case 'provider_error':
      return error.providerError === 'access_denied' ? 'access_denied' : 'provider_error';
    case 'invalid_provider_response':
      return 'provider_error';
    case 'provider_unavailable':
      return 'provider_unavailable';
    case 'provider_configuration':
      return 'server_error';
    default:
      return 'invalid_callback';
  }
}
