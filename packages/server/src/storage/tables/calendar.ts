import type { Generated } from 'kysely';

/** Calendar connections and the consents in flight (migration 0021). */

/**
 * A user's grant to their calendar at a provider, through a provider connection. Table types are
 * camelCase in code (snake_case in SQL through Kysely's CamelCasePlugin): times epoch-ms integers,
 * booleans 0/1 integers, JSON text.
 */
export interface CalendarConnectionsTable {
  id: string;
  userId: string;
  /** The OIDC connection (Google or Microsoft) the grant goes through. */
  connectionId: string;
  providerType: string;
  /** The provider's `sub` of the account whose calendar it is. */
  accountSubject: string;
  /** The `iss` of its ID token (a Microsoft multi-tenant connection: the account's own tenant's). */
  accountIssuer: string;
  accountEmail: string | null;
  /** JSON list of the granted scopes. */
  scopesJson: string;
  /** The access and refresh tokens, sealed with the master key; null once revoked. */
  tokensSealed: string | null;
  /** 0/1: a refresh token is held. */
  offlineAccess: number;
  accessTokenExpiresAt: number | null;
  status: string;
  version: number;
  createdAt: number;
  updatedAt: number;
  lastRefreshedAt: number | null;
  revokedAt: number | null;
}

/** A calendar consent between the redirect to the provider and its callback. */
export interface CalendarConsentStatesTable {
  /** SHA-256 hex of the `state` sent to the provider. */
  tokenHash: string;
  userId: string;
  /** The app the user returns to. */
  clientId: string;
  connectionId: string;
  returnUri: string;
  redirectUri: string;
  /** JSON list of the calendar scopes asked for. */
  scopesJson: string;
  /** The nonce and PKCE verifier, sealed with the master key. */
  secretsSealed: string;
  /** SHA-256 hex of the id of the browser that opened the consent's link (migration 0042). */
  browserBinding: Generated<string | null>;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}
