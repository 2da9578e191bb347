import { MINUTE_MS } from '../../kernel/clock.js';
import type { SessionRecord } from './repository.js';

/** docs/reference/limits.md "Lifetimes": access tokens live 15 minutes. */
export const ACCESS_TOKEN_LIFETIME_SECONDS = 15 * 60;

/** ID tokens live as long as the access token minted with them. */
export const ID_TOKEN_LIFETIME_SECONDS = ACCESS_TOKEN_LIFETIME_SECONDS;

/** docs/reference/tokens-and-sessions.md "Authorization codes and PKCE": Authorization code: 5 minutes, single use; reuse revokes the tokens issued from it. */
export const AUTHORIZATION_CODE_LIFETIME_MS = 5 * MINUTE_MS;

/** RFC 9068 §2.1: the `typ` header of a JWT access token. */
export const ACCESS_TOKEN_TYP = 'at+jwt';

/** RFC 6750 token type of every access token Svc issues. */
export const TOKEN_TYPE = 'Bearer';

/**
 * Where a session stands at `now`. docs/reference/tokens-and-sessions.md "Sessions": the idle deadline is checked only at refresh
 * (and by session-aware userinfo), the absolute lifetime everywhere.
 *
 * - `active`: not revoked, before both deadlines
 * - `revoked`: logout, logout-all, or a detected replay revoked the family
 * - `idle_expired`: no successful refresh before `idleExpiresAt`
 * - `absolute_expired`: past `absoluteExpiresAt`; nothing extends it
 */
export type SessionState = 'active' | 'revoked' | 'idle_expired' | 'absolute_expired';

export function sessionState(
  session: Pick<SessionRecord, 'revokedAt' | 'absoluteExpiresAt' | 'idleExpiresAt'>,
  now: number,
): SessionState {
  if (session.revokedAt !== null) return 'revoked';
  if (now >= session.absoluteExpiresAt) return 'absolute_expired';
  if (now >= session.idleExpiresAt) return 'idle_expired';
  return 'active';
}
