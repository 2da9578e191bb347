import type { ClientRecord } from '../directory/repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import { buildRedirect } from '../oauth/authorize/redirect.js';
import type { BrowserSessions } from './browser-sessions.js';

export interface BrowserLogoutDeps {
  readonly browserSessions: Pick<BrowserSessions, 'resolve' | 'end'>;
  /** The client registered under a client_id (active or not). */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  readonly audit: AuditLog;
}

/** What GET /logout was asked (OpenID Connect RP-Initiated Logout 1.0 parameter names). */
export interface LogoutParameters {
  readonly clientId: string | undefined;
  readonly postLogoutRedirectUri: string | undefined;
  readonly state: string | undefined;
}

/**
 * Which endpoint ends the session, and so which of the client's lists a return URI must be in (docs/reference/tokens-and-sessions.md
 * "Logout"): GET /logout returns to a registered redirect URI, RP-Initiated Logout's `/session/end` only to a
 * registered post-logout redirect URI (its §3: "MUST NOT perform post-logout redirection" otherwise).
 */
export type LogoutEndpoint = 'logout' | 'end_session';

const RETURN_URIS = {
  logout: 'redirectUris',
  end_session: 'postLogoutRedirectUris',
} as const satisfies Record<LogoutEndpoint, keyof ClientRecord>;

/** Longest `state` echoed back, as /authorize's (docs/reference/limits.md "Sizes and lengths"). */
const MAX_STATE_LENGTH = 2048;
const CONTROL = /\p{Cc}/u;

/**
 * Logout of the issuer session, for the hosted GET /logout and the headless /logout (docs/reference/tokens-and-sessions.md "Logout": GET /logout "ends the issuer session cookie and redirects safely"). It ends the
 * browser's issuer session (not the token sessions of the clients: those end through their refresh
 * tokens, docs/reference/tokens-and-sessions.md "Logout") and decides where the browser goes next.
 */
export class BrowserLogout {
  readonly #deps: BrowserLogoutDeps;

  constructor(deps: BrowserLogoutDeps) {
    this.#deps = deps;
  }

  /**
   * Ends the session of the cookie value (unknown or missing: nothing to do) and returns the URL to
   * return to, or null for the service's own logged-out page.
   */
  async logout(
    sessionToken: string | undefined,
    parameters: LogoutParameters,
    endpoint: LogoutEndpoint = 'logout',
  ): Promise<string | null> {
    const session = await this.#deps.browserSessions.resolve(sessionToken);
    await this.#deps.browserSessions.end(sessionToken);
    const target = await this.returnUrl(parameters, endpoint);
    if (session !== null) {
      await this.#deps.audit.record({
        kind: 'oauth.hosted_logout.completed',
        actorType: 'user',
        actorId: session.userId,
        userId: session.userId,
        // Only a client_id that was verified (its redirect URI matched) is worth recording.
        ...(target === null || parameters.clientId === undefined ? {} : { clientId: parameters.clientId }),
        data: { browserSessionId: session.sessionId, endpoint },
      });
    }
    return target;
  }

  /**
   * The post-logout redirect, only when it is exactly (case-sensitive, no normalization) one of the
   * endpoint's registered URIs of the active client named by client_id; anything else, including a URI
   * registered for a different client, gets null, so neither endpoint can be used as an open redirect.
   * `state` is appended when it is 1-2048 characters without controls.
   */
  async returnUrl(parameters: LogoutParameters, endpoint: LogoutEndpoint = 'logout'): Promise<string | null> {
    const { clientId, postLogoutRedirectUri: uri, state } = parameters;
    if (clientId === undefined || uri === undefined) return null;
    // A client_id with a control character is never looked up (PostgreSQL text cannot hold NUL).
    if (clientId === '' || clientId.length > 256 || CONTROL.test(clientId)) return null;
    const client = await this.#deps.findClient(clientId);
    if (client?.active !== true || !client[RETURN_URIS[endpoint]].includes(uri)) return null;
    const echo =
      state !== undefined && state !== '' && state.length <= MAX_STATE_LENGTH && !CONTROL.test(state)
        ? state
        : null;
    return buildRedirect(uri, { state: echo });
  }
}
