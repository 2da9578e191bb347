import type { Generated } from 'kysely';

/** Token sessions, refresh tokens, authorization codes, issuer sessions, consents and device requests. */

/** A token session: the refresh-token family of one sign-in of one user at one client (0002). */
export interface SessionsTable {
  id: string;
  userId: string;
  /** The OAuth client_id string (not the clients row id). */
  clientId: string;
  organizationId: string | null;
  /** JSON list of the granted scopes; NULL for a session created before scopes were recorded. */
  grantedScopesJson: string | null;
  /** The RFC 8707 resource the family is bound to (the access tokens' aud); NULL = the client's audience. */
  resource: string | null;
  amrJson: string;
  /** When the user originally authenticated (epoch ms). */
  authTime: number;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: number;
  lastSeenAt: number;
  idleExpiresAt: number;
  absoluteExpiresAt: number;
  revokedAt: number | null;
  revokedReason: string | null;
}

export interface RefreshTokensTable {
  id: string;
  sessionId: string;
  /** SHA-256 hex of the token (`<id>.<secret>`); the token itself is never stored. */
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
  revokedAt: number | null;
  /**
   * 2 for a token that names its row (`<id>.<secret>`, found by id); 1 for an opaque token from before
   * 0013 (found by `tokenHash`), the column's default.
   */
  tokenFormat: Generated<number>;
}

export interface AuthorizationCodesTable {
  /** SHA-256 hex of the code. */
  codeHash: string;
  clientId: string;
  userId: string;
  organizationId: string | null;
  redirectUri: string;
  /** The S256 challenge; NULL when the code is not PKCE-bound. */
  codeChallenge: string | null;
  scopeJson: string;
  resource: string | null;
  nonce: string | null;
  authTime: number;
  amrJson: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
  /** The session its redemption created, so that a replay can revoke it. */
  sessionId: string | null;
  /** The browser that completed the sign-in (migration 0045), for the session; NULL when unknown. */
  userAgent: string | null;
  ipAddress: string | null;
}

export interface PendingAuthTokensTable {
  tokenHash: string;
  /** 'organization_selection' now; the MFA issue adds its own purposes. */
  purpose: string;
  userId: string;
  clientId: string;
  /** The sign-in context needed to continue (flow, amr, auth time, the caller's resume data). */
  contextJson: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

/** The issuer session behind the hosted pages' session cookie. */
export interface BrowserSessionsTable {
  id: string;
  tokenHash: string;
  userId: string;
  amrJson: string;
  authTime: number;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** A user's consent to a client's scopes; at most one active (unrevoked) grant per user and client. */
export interface ConsentGrantsTable {
  id: string;
  userId: string;
  clientId: string;
  scopesJson: string;
  grantedAt: number;
  updatedAt: number;
  revokedAt: number | null;
}

/** An operator's display name of a scope, shown at consent (migration 0038); one per scope. */
export interface ScopeDisplayNamesTable {
  id: string;
  scope: string;
  displayName: string;
  description: string | null;
  createdAt: number;
  updatedAt: number;
}

/** A device authorization request (migration 0012): hashes only; status pending, approved, denied or consumed. */
export interface DeviceAuthorizationsTable {
  /** SHA-256 hex of the device code. */
  deviceCodeHash: string;
  /** SHA-256 hex of the normalized user code; unique. */
  userCodeHash: string;
  clientId: string;
  scopeJson: string;
  resource: string | null;
  status: string;
  intervalSeconds: number;
  lastPolledAt: number | null;
  userId: string | null;
  organizationId: string | null;
  amrJson: string | null;
  authTime: number | null;
  decidedAt: number | null;
  consumedAt: number | null;
  sessionId: string | null;
  createdAt: number;
  expiresAt: number;
}

/** An operator's session revocation that named an operation id (0037); the result is JSON of its counts. */
export interface SessionRevocationOperationsTable {
  operationId: string;
  /** The resolved selector as canonical JSON (fixed key order), compared on a retry. */
  selectorJson: string;
  reason: string | null;
  /** Null only inside the transaction that claimed the row. */
  resultJson: string | null;
  createdAt: number;
}
