/**
 * The storage the token engine owns: token sessions, their refresh tokens and authorization codes.
 * Times are epoch milliseconds; refresh tokens and codes are known only by their SHA-256 hex.
 */

/** A token session: one sign-in of one user at one client, the family of its refresh tokens. */
export interface SessionRecord {
  readonly id: string;
  readonly userId: string;
  /** The OAuth client_id. */
  readonly clientId: string;
  /** Null for a user-scoped session (a user without organizations). */
  readonly organizationId: string | null;
  /** The scopes granted at sign-in; null for a session created before granted scope was recorded. */
  readonly grantedScopes: readonly string[] | null;
  /** The RFC 8707 resource bound to the family; null = the client's audience. */
  readonly resource: string | null;
  /** Authentication methods (RFC 8176), for example ['pwd']. */
  readonly amr: readonly string[];
  /** When the user originally authenticated. */
  readonly authTime: number;
  readonly userAgent: string | null;
  readonly ipAddress: string | null;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  /** Checked at refresh only; moves to now + SessionIdleTimeout after each successful refresh. */
  readonly idleExpiresAt: number;
  readonly absoluteExpiresAt: number;
  readonly revokedAt: number | null;
  readonly revokedReason: string | null;
}

export interface RefreshTokenRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly tokenHash: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly consumedAt: number | null;
  readonly revokedAt: number | null;
}

export interface AuthorizationCodeRecord {
  readonly codeHash: string;
  readonly clientId: string;
  readonly userId: string;
  readonly organizationId: string | null;
  /** The exact redirect_uri of the request. */
  readonly redirectUri: string;
  /** The S256 code challenge; null when the code is not PKCE-bound. */
  readonly codeChallenge: string | null;
  /** The granted scopes. */
  readonly scopes: readonly string[];
  readonly resource: string | null;
  readonly nonce: string | null;
  /** Epoch milliseconds of the original authentication. */
  readonly authTime: number;
  readonly amr: readonly string[];
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly consumedAt: number | null;
  /** The session its redemption created (set in the redeeming transaction). */
  readonly sessionId: string | null;
}

/** Why a session was revoked (stored in `revoked_reason`). */
export type SessionRevocationReason =
  'logout' | 'logout_all' | 'refresh_token_reuse' | 'authorization_code_reuse' | (string & {});

/** The changes a successful refresh makes to its session. */
export interface SessionRefreshUpdate {
  readonly organizationId: string | null;
  readonly idleExpiresAt: number;
  readonly lastSeenAt: number;
}

export interface TokenStore {
  /**
   * Runs `work` in one database transaction over a store bound to it; a throw rolls everything back.
   * Inside `work` use only the given store (on SQLite any other query would wait for the transaction's
   * connection forever), and never nest transactions.
   */
  transaction<T>(work: (store: TokenStore) => Promise<T>): Promise<T>;

  insertSession(session: SessionRecord): Promise<void>;
  /** Applies a refresh to a session that is not revoked; false when it was revoked meanwhile. */
  refreshSession(id: string, update: SessionRefreshUpdate): Promise<boolean>;
  /** Revokes the session and every refresh token of its family; false when it was already revoked. */
  revokeSession(id: string, now: number, reason: SessionRevocationReason): Promise<boolean>;
  /** Revokes every unrevoked session of the user (and their refresh tokens); returns how many. */
  revokeUserSessions(userId: string, now: number, reason: SessionRevocationReason): Promise<number>;

  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  /** The refresh token with this hash and its session, in any state. */
  findRefreshToken(
    tokenHash: string,
  ): Promise<{ token: RefreshTokenRecord; session: SessionRecord } | undefined>;
  /**
   * The single-use primitive: marks the token consumed only if it is unconsumed, unrevoked and
   * unexpired at `now`; true for exactly one of any number of concurrent callers.
   */
  consumeRefreshToken(id: string, now: number): Promise<boolean>;

  insertAuthorizationCode(code: AuthorizationCodeRecord): Promise<void>;
  findAuthorizationCode(codeHash: string): Promise<AuthorizationCodeRecord | undefined>;
  /**
   * Single use: marks the code consumed only if unconsumed and unexpired at `now`, and remembers the
   * session its redemption creates (`sessionId`), so that a replay of the code can revoke it.
   */
  consumeAuthorizationCode(codeHash: string, now: number, sessionId: string): Promise<boolean>;
}
