import { SvcPublicAuthError } from '../../kernel/errors.js';
import type { TokenEngineDeps } from './deps.js';
import type { SessionRecord, SessionRevocationReason, SessionSelector } from './repository.js';
import { sessionState } from './token-policy.js';
import { refreshTokenKey } from './refresh-token-value.js';

export interface LogoutInput {
  readonly refreshToken?: string | null;
  readonly sessionId?: string | null;
}

/** The one 401 of logout-all with a token that proves nothing (docs/reference/errors.md "Common codes"). */
export function inactiveRefreshTokenError(): SvcPublicAuthError {
  return new SvcPublicAuthError('invalid_token', 'The refresh token is not active.', 401);
}

/**
 * Ending sessions (docs/reference/tokens-and-sessions.md "Logout": Session: logout with refresh token or session id → revoked; unknown or missing
 * tokens: no-op; logout-all → all user sessions revoked;: "proof of ownership is the
 * refresh token only").
 */
export class SessionRevocation {
  readonly #deps: Pick<TokenEngineDeps, 'store' | 'clock'>;

  constructor(deps: Pick<TokenEngineDeps, 'store' | 'clock'>) {
    this.#deps = deps;
  }

  /**
   * Revokes the session of the refresh token (in any state: logging out is always allowed) and/or the
   * session with the id. Unknown or missing values are no-ops. Returns how many sessions were revoked now.
   */
  async logout(input: LogoutInput): Promise<number> {
    const { store, clock } = this.#deps;
    const now = clock.now();
    const ids = new Set<string>();
    if (input.refreshToken != null && input.refreshToken !== '') {
      const found = await store.findRefreshToken(refreshTokenKey(input.refreshToken));
      if (found !== undefined) ids.add(found.session.id);
    }
    if (input.sessionId != null && input.sessionId !== '') ids.add(input.sessionId);
    let revoked = 0;
    for (const id of ids) if (await store.revokeSession(id, now, 'logout')) revoked += 1;
    return revoked;
  }

  /** Revokes every session of the user; returns how many were still live. */
  logoutAll(userId: string): Promise<number> {
    return this.revokeMatching({ userId }, 'logout_all');
  }

  /** Revokes every live session the selector matches (an operator's deactivation); returns how many. */
  revokeMatching(selector: SessionSelector, reason: SessionRevocationReason): Promise<number> {
    return this.#deps.store.revokeSessions(selector, this.#deps.clock.now(), reason);
  }

  /**
   * The session an ACTIVE refresh token proves: the token is unconsumed, unrevoked and unexpired, and
   * its session is live (not revoked, before its idle and absolute deadlines). Undefined otherwise.
   */
  async activeSession(refreshToken: string): Promise<SessionRecord | undefined> {
    const now = this.#deps.clock.now();
    const found = await this.#deps.store.findRefreshToken(refreshTokenKey(refreshToken));
    if (found === undefined) return undefined;
    const { token, session } = found;
    if (token.consumedAt !== null || token.revokedAt !== null || now >= token.expiresAt) return undefined;
    return sessionState(session, now) === 'active' ? session : undefined;
  }

  /**
   * POST /logout-all: the user is derived from the token, which must be active (401 `invalid_token`
   * otherwise: "missing, inactive, expired or consumed"). Returns the user whose sessions were revoked.
   */
  async logoutAllByRefreshToken(refreshToken: string | null | undefined): Promise<string> {
    const session =
      refreshToken == null || refreshToken === '' ? undefined : await this.activeSession(refreshToken);
    if (session === undefined) throw inactiveRefreshTokenError();
    await this.logoutAll(session.userId);
    return session.userId;
  }
}
