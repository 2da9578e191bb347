import type { ClientRecord, UserRecord } from '../../directory/repository.js';
import type { IdTokenHint } from '../../oauth/tokens/id-token-hints.js';
import type { BrowserSessions, ResolvedBrowserSession } from '../../signin/browser-sessions.js';
import type { BrowserLogout, LogoutParameters } from '../../signin/browser-logout.js';

export interface EndSessionDeps {
  readonly logout: Pick<BrowserLogout, 'logout'>;
  readonly browserSessions: Pick<BrowserSessions, 'resolve'>;
  readonly idTokenHints: { verify(token: string): Promise<IdTokenHint | null> };
  /** The client registered under a client_id (active or not). */
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  /** The signed-in user, for "Signed in as" on the confirmation page. */
  findUser(userId: string): Promise<Pick<UserRecord, 'email'> | undefined>;
}

/** A logout request at `/session/end` (OpenID Connect RP-Initiated Logout 1.0 §2). */
export interface EndSessionRequest extends LogoutParameters {
  readonly idTokenHint: string | undefined;
}

/**
 * What `/session/end` answers:
 * - `ended`: the issuer session is over (or there was none); go to `location`, or to the logged-out page
 *   when it is null;
 * - `confirm`: nothing was ended; ask the person first, and post `parameters` back with the answer;
 * - `refused`: `client_id` names another client than the hint's audience (§2: the OP "MUST verify" they
 *   match); nothing was ended.
 */
export type EndSessionOutcome =
  | { readonly kind: 'ended'; readonly location: string | null }
  | {
      readonly kind: 'confirm';
      readonly parameters: LogoutParameters;
      readonly userEmail: string | undefined;
    }
  | { readonly kind: 'refused' };

/**
 * RP-initiated logout that another site cannot force. The session ends at once only when the request
 * proves it comes from the signed-in person's own client: a valid `id_token_hint` (an ID token of this
 * issuer, expired ones included, issued to an active client) that belongs to the browser's issuer
 * session, meaning the same user and issued since that session's sign-in (§2: otherwise the OP "MUST ask
 * the End-User"). Anything else shows a confirmation form, so that a link or a cross-site form ends
 * nothing by itself. Without a live issuer session there is nothing to end or ask about, and the request
 * goes straight to its return URI (the working group's reading: a valid post_logout_redirect_uri is
 * honoured whether or not the user was still signed in).
 */
export class EndSession {
  readonly #deps: EndSessionDeps;

  constructor(deps: EndSessionDeps) {
    this.#deps = deps;
  }

  async request(sessionToken: string | undefined, request: EndSessionRequest): Promise<EndSessionOutcome> {
    const hint = request.idTokenHint === undefined ? null : await this.#validHint(request.idTokenHint);
    if (hint !== null && request.clientId !== undefined && request.clientId !== hint.clientId) {
      return { kind: 'refused' };
    }
    const parameters: LogoutParameters = {
      clientId: hint?.clientId ?? request.clientId,
      postLogoutRedirectUri: request.postLogoutRedirectUri,
      state: request.state,
    };
    const session = await this.#deps.browserSessions.resolve(sessionToken);
    if (session === null || (hint !== null && belongsTo(hint, session))) {
      return {
        kind: 'ended',
        location: await this.#deps.logout.logout(sessionToken, parameters, 'end_session'),
      };
    }
    const user = await this.#deps.findUser(session.userId);
    return { kind: 'confirm', parameters, userEmail: user?.email ?? undefined };
  }

  /** The hint when it verifies and its audience is an active client; null means "no usable hint". */
  async #validHint(token: string): Promise<IdTokenHint | null> {
    const hint = await this.#deps.idTokenHints.verify(token);
    if (hint === null) return null;
    const client = await this.#deps.findClient(hint.clientId);
    return client?.active === true ? hint : null;
  }
}

/**
 * The hint was issued to the session's user since the session's sign-in (`iat` is whole seconds). An
 * older ID token, for example one copied from a log, cannot end a later session without asking.
 */
function belongsTo(hint: IdTokenHint, session: ResolvedBrowserSession): boolean {
  return hint.userId === session.userId && hint.issuedAt >= Math.floor(session.authTime / 1000);
}
