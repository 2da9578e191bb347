/** Federation: OpenID / social provider connections (migration 0018) linked identities (0019) and sign-ins in flight (0020). */

/**
 * Table types, camelCase in code (snake_case in SQL through Kysely's CamelCasePlugin). Portable column
 * choices made once: times are epoch-millisecond integers, booleans are 0/1 integers, JSON is text.
 */
export interface OidcConnectionsTable {
  id: string;
  providerType: string;
  displayName: string;
  clientId: string;
  /** AES-256-GCM under the master key (`v1.<iv>.<tag>.<ciphertext>`); null for Apple. */
  clientSecretSealed: string | null;
  allowedCallbackUrisJson: string;
  useDiscovery: number;
  discoveryUrl: string | null;
  issuer: string | null;
  authorizationEndpoint: string | null;
  tokenEndpoint: string | null;
  userInfoEndpoint: string | null;
  jwksUri: string | null;
  microsoftTenant: string | null;
  /** JSON list; empty = the provider's default scopes. */
  scopesJson: string;
  /** JSON object of the configured claim names, or null for the provider's defaults. */
  claimMappingJson: string | null;
  clientAuthMethod: string;
  /** 0/1, or null for the provider's default. */
  useUserInfo: number | null;
  appleTeamId: string | null;
  appleKeyId: string | null;
  /** Apple's PKCS#8 PEM key, sealed like the client secret; null for the other providers. */
  applePrivateKeySealed: string | null;
  logoDataUrl: string | null;
  organizationId: string | null;
  enabled: number;
  createdAt: number;
  updatedAt: number;
}

/** A provider identity linked to an account (migration 0019). */
export interface OidcIdentitiesTable {
  id: string;
  connectionId: string;
  /** The provider's stable subject for the user (`sub`, GitHub's numeric id). */
  subject: string;
  userId: string;
  /** The address the provider last asserted, and whether it asserted it verified (0/1). */
  email: string | null;
  emailVerified: number;
  createdAt: number;
  lastUsedAt: number;
}

/** A sign-in through a provider between its redirect and its callback (migration 0020). */
export interface OidcLoginStatesTable {
  /** SHA-256 hex of the `state` sent to the provider. */
  tokenHash: string;
  connectionId: string;
  /** The authorization request the sign-in continues (null: not bound to one). */
  authRequestId: string | null;
  redirectUri: string;
  /** The nonce and PKCE verifier, sealed with the master key. */
  secretsSealed: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}
