import type { Generated } from 'kysely';

/**
 * Federation: OpenID / social provider connections (migration 0018), linked identities (0019), sign-ins
 * in flight (0020), and SAML SSO connections with their AuthnRequests and used assertions (0022).
 */

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
  /** `dashboard` (the default, migration 0050) or `code` (a seed of createSvc({ oidc })). */
  owner: Generated<string>;
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

/** A SAML SSO connection of an organization (migration 0022). */
export interface SsoConnectionsTable {
  id: string;
  organizationId: string;
  displayName: string;
  primaryDomain: string | null;
  autoProvisionUsers: number;
  autoLinkByEmail: number;
  enabled: number;
  spEntityId: string;
  acsUrl: string;
  idpEntityId: string | null;
  idpSsoUrl: string | null;
  /** JSON list of PEM certificates (empty until metadata is imported). */
  idpSigningCertificatesJson: string;
  metadataImportedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** An AuthnRequest Svc sent, waiting for its answer (migration 0022). */
export interface SamlAuthnRequestsTable {
  /** SHA-256 hex of the request's ID (the answer's InResponseTo). */
  tokenHash: string;
  connectionId: string;
  /** SHA-256 hex of the RelayState sent with it. */
  relayStateHash: string;
  /** What the sign-in continues with (JSON). */
  continuationJson: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

/** An assertion already accepted (migration 0022), kept until it could no longer be accepted anyway. */
export interface SamlUsedAssertionsTable {
  connectionId: string;
  /** SHA-256 hex of the assertion's ID. */
  assertionIdHash: string;
  usedAt: number;
  expiresAt: number;
}

/** A setup link of the SSO setup portal (migration 0025). */
export interface SsoPortalLinksTable {
  id: string;
  organizationId: string;
  /** SHA-256 hex of the link's token. */
  tokenHash: string;
  createdAt: number;
  expiresAt: number;
  /** When the token was exchanged for a portal session (at most once). */
  consumedAt: number | null;
  revokedAt: number | null;
}

/** A portal session a setup link was exchanged for (migration 0025). */
export interface SsoPortalSessionsTable {
  id: string;
  linkId: string;
  organizationId: string;
  /** SHA-256 hex of the cookie's secret. */
  secretHash: string;
  createdAt: number;
  expiresAt: number;
  /** The last test sign-in's result (JSON), null before the first. */
  testResultJson: string | null;
}

/** A SAML identity linked to an account (migration 0028): one per (connection, NameID). */
export interface SamlIdentitiesTable {
  id: string;
  connectionId: string;
  nameId: string;
  userId: string;
  /** The address the IdP last asserted. */
  email: string;
  createdAt: number;
  lastUsedAt: number;
}

/** An accepted SAML answer waiting for the browser's GET (migration 0028), taken once. */
export interface SamlSignInHandlesTable {
  /** SHA-256 hex of the handle. */
  tokenHash: string;
  connectionId: string;
  /** The accepted sign-in (JSON). */
  signInJson: string;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

/** A temporary code of the direct SAML request-token flow (0029). */
export interface SamlRequestCodesTable {
  /** SHA-256 hex of the code. */
  codeHash: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  userId: string;
  organizationId: string;
  connectionId: string;
  authTime: number;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}
