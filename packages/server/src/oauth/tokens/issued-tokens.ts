import type { SvcTokenResponse } from '@svc/contract';
import { toIso } from '../../kernel/clock.js';

/** What every grant (code, refresh, direct sign-in) hands back before an adapter shapes it for its wire. */
export interface IssuedTokens {
  readonly accessToken: string;
  readonly tokenType: 'Bearer';
  readonly refreshToken: string;
  /** Present only when the grant includes an ID token (never null, per docs/reference/tokens-and-sessions.md "The token endpoint"). */
  readonly idToken?: string;
  readonly sessionId: string;
  readonly clientId: string;
  readonly organizationId: string | null;
  /**
   * The scope granted to the session (on refresh: the original grant). Null only for a session created
   * before granted scope was recorded, for which the token endpoint omits `scope`.
   */
  readonly scope: readonly string[] | null;
  /** Access token lifetime in seconds (`expires_in`). */
  readonly expiresIn: number;
  /** Epoch milliseconds. */
  readonly accessTokenExpiresAt: number;
  /** Epoch milliseconds. */
  readonly refreshTokenExpiresAt: number;
}

/** SvcTokenResponse of the in-process API and the direct JSON helpers (no ID token, ISO timestamps). */
export function toSvcTokenResponse(issued: IssuedTokens): SvcTokenResponse {
  return {
    accessToken: issued.accessToken,
    refreshToken: issued.refreshToken,
    sessionId: issued.sessionId,
    clientId: issued.clientId,
    organizationId: issued.organizationId,
    accessTokenExpiresAt: toIso(issued.accessTokenExpiresAt),
    refreshTokenExpiresAt: toIso(issued.refreshTokenExpiresAt),
  };
}

/** The snake_case body of POST /token (docs/reference/tokens-and-sessions.md "The token endpoint"). */
export interface OAuthTokenResponseBody {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope?: string;
  id_token?: string;
}

/**
 * docs/reference/tokens-and-sessions.md "The token endpoint": `scope` is the granted set ('' for an empty grant) and is omitted for sessions created before
 * granted scope was recorded; `id_token` is absent rather than null when not issued.
 */
export function toOAuthTokenResponse(issued: IssuedTokens): OAuthTokenResponseBody {
  const body: OAuthTokenResponseBody = {
    access_token: issued.accessToken,
    token_type: issued.tokenType,
    expires_in: issued.expiresIn,
    refresh_token: issued.refreshToken,
  };
  if (issued.scope !== null) body.scope = issued.scope.join(' ');
  if (issued.idToken !== undefined) body.id_token = issued.idToken;
  return body;
}
