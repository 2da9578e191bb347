import type { UserRecord } from '../../directory/repository.js';

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
  /**
   * The browser that completed the sign-in: its user agent (cut to 512 characters) and address, which
   * the session keeps. The redemption comes from the client, often its backend, so its own say nothing
   * of the user's device. Null when unknown (a code issued before they were recorded).
   */
  readonly userAgent: string | null;
  readonly ipAddress: string | null;
}

/** Why a session was revoked (stored in `revoked_reason`). */
export type SessionRevocationReason =
  | 'logout'
  | 'logout_all'
  | 'refresh_token_reuse'
  | 'authorization_code_reuse'
  | 'user_deactivated'
  | 'organization_deactivated'
  | 'membership_deactivated'
  | 'client_deactivated'
  | 'admin_revoked'
  | (string & {});

/**
 * Which sessions a revocation ends: every given field must match (AND). At least one is given, so that
 * no selector can mean every session.
 */
export type SessionSelector = SessionFields &
  (
    | { readonly sessionId: string }
    | { readonly userId: string }
    | { readonly organizationId: string }
    | { readonly clientId: string }
  );

interface SessionFields {
  readonly sessionId?: string;
  readonly userId?: string;
  readonly organizationId?: string;
  /** The OAuth client_id. */
  readonly clientId?: string;
}

/** The changes a successful refresh makes to its session. */
export interface SessionRefreshUpdate {
  readonly organizationId: string | null;
  readonly idleExpiresAt: number;
  readonly lastSeenAt: number;
}

/** What the token claims and a grant's checks read of a session's user. */
export type SessionUser = Pick<
  UserRecord,
  'id' | 'displayName' | 'email' | 'emailVerified' | 'active' | 'updatedAt'
>;

/**
 * What a presented refresh token is found by: the id of the row it names, and its SHA-256, which that
 * row must hold. A token from before tokens named their rows has no id and is found by its hash alone.
 */
export interface RefreshTokenKey {
  readonly id: string | null;
  readonly tokenHash: string;
}

/** A refresh token as a refresh reads it: with its session and that session's user. */
export interface FoundRefreshToken {
  readonly token: RefreshTokenRecord;
  readonly session: SessionRecord;
  readonly user: SessionUser;
}

export interface FoundAuthorizationCode {
  readonly code: AuthorizationCodeRecord;
  readonly user: SessionUser;
}

/** The writes of one refresh (see {@link TokenStore.rotateRefreshToken}). */
export interface RefreshTokenRotation {
  /** The presented token, consumed if it is still unconsumed, unrevoked and unexpired at `now`. */
  readonly tokenId: string;
  readonly now: number;
  /** The changes to the session. */
  readonly update: SessionRefreshUpdate;
  /** Its successor in the family (whose `sessionId` names the session). */
  readonly next: RefreshTokenRecord;
}

/**
 * How a rotation ended: `rotated`; `token_used` when the token was no longer usable (a concurrent refresh
 * consumed it first, or it was revoked or expired meanwhile); `session_revoked` when the session was
 * revoked meanwhile (its tokens are revoked with it, so nothing usable was consumed).
 */
export type RotationOutcome = 'rotated' | 'token_used' | 'session_revoked';

/**
 * The token grants write through single calls, each all or nothing: on SQLite a transaction, on
 * PostgreSQL one statement, so that a grant makes one round trip to the database instead of one per row.
 */
export interface TokenStore {
  /** Writes a new session and its first refresh token. */
  createSession(session: SessionRecord, firstToken: RefreshTokenRecord): Promise<void>;
  /**
   * One refresh: consumes the presented token (the single-use primitive, which succeeds for exactly one
   * of any number of concurrent callers), applies the refresh to its session unless the session was
   * revoked, and adds the successor to the family.
   */
  rotateRefreshToken(rotation: RefreshTokenRotation): Promise<RotationOutcome>;
  /**
   * One code redemption: consumes the code only if it is unconsumed and unexpired at `now` (single use),
   * naming the session it creates so that a replay of the code can revoke it, and writes that session and
   * its first refresh token. False, with nothing written, when the code was not usable.
   */
  redeemAuthorizationCode(
    codeHash: string,
    now: number,
    session: SessionRecord,
    firstToken: RefreshTokenRecord,
  ): Promise<boolean>;
  /** Revokes the session and every refresh token of its family; false when it was already revoked. */
  revokeSession(id: string, now: number, reason: SessionRevocationReason): Promise<boolean>;
  /**
   * Revokes every unrevoked session the selector matches and their refresh tokens, in one transaction;
   * returns how many.
   */
  revokeSessions(selector: SessionSelector, now: number, reason: SessionRevocationReason): Promise<number>;

  /** The refresh token with this key, its session and the session's user, in any state, in one read. */
  findRefreshToken(key: RefreshTokenKey): Promise<FoundRefreshToken | undefined>;

  insertAuthorizationCode(code: AuthorizationCodeRecord): Promise<void>;
  /** The code with this hash, in any state, and its user, in one read. */
  findAuthorizationCode(codeHash: string): Promise<FoundAuthorizationCode | undefined>;
}

/** The session reads and writes of validation, shaped for a call per resource-server request. */
export interface AccessTokenSessions {
  /**
   * The session with its user in one primary-key read; `membershipActive` is true when the session is
   * organization-scoped and the user's membership and the organization are both active.
   */
  find(
    sessionId: string,
  ): Promise<{ session: ValidatedSession; user: ValidatedUser; membershipActive: boolean } | undefined>;
  /**
   * Sets the session's lastSeenAt to `now` only if the stored value is at or before `writtenBefore`: one
   * conditional UPDATE, so that of concurrent validations that all read a stale value one writes.
   */
  touch(sessionId: string, now: number, writtenBefore: number): Promise<void>;
}

/** What validation reads of a session: what it checks and what its callers release. */
export type ValidatedSession = Pick<
  SessionRecord,
  | 'id'
  | 'userId'
  | 'clientId'
  | 'organizationId'
  | 'grantedScopes'
  | 'amr'
  | 'lastSeenAt'
  | 'idleExpiresAt'
  | 'absoluteExpiresAt'
  | 'revokedAt'
>;

/** What validation reads of the session's user: its state and the claims userinfo releases. */
export type ValidatedUser = SessionUser;
