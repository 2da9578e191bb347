/**
 * Table types, camelCase in code (snake_case in SQL through Kysely's CamelCasePlugin). Portable column
 * choices made once: times are epoch-millisecond integers, booleans are 0/1 integers, JSON is text.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  primaryDomain: string | null;
  active: number;
  createdAt: number;
  updatedAt: number;
}

export interface UsersTable {
  id: string;
  displayName: string;
  email: string;
  /** trim + invariant upper-case: the lookup key (SPEC.md "Email lookup key normalization"). */
  emailKey: string;
  emailVerified: number;
  passwordHash: string | null;
  isOperator: number;
  active: number;
  createdAt: number;
  updatedAt: number;
}

export interface MembershipsTable {
  id: string;
  organizationId: string;
  userId: string;
  role: string;
  active: number;
  createdAt: number;
  updatedAt: number;
}

export interface ClientsTable {
  id: string;
  clientId: string;
  name: string;
  audience: string;
  redirectUrisJson: string;
  isFirstParty: number;
  allowedScopesJson: string;
  allowedResourcesJson: string;
  tokenEndpointAuthMethod: string;
  clientSecretHash: string | null;
  allowDeviceAuthorization: number;
  allowClientCredentials: number;
  active: number;
  createdAt: number;
  updatedAt: number;
}

export interface SecuritySettingsTable {
  id: string;
  refreshTokenLifetimeMinutes: number;
  sessionIdleTimeoutMinutes: number;
  sessionAbsoluteLifetimeMinutes: number;
  signingKeyRotationIntervalDays: number;
  signingKeyGraceWindowDays: number;
  signingKeyRetiredCleanupDays: number;
  refreshTokenGraceWindowSeconds: number;
  updatedAt: number;
}

export interface SigningKeysTable {
  kid: string;
  alg: string;
  publicJwkJson: string;
  /** PKCS#8 PEM sealed with the master key (AES-256-GCM, bound to the kid). */
  privateKeySealed: string;
  /** 1 while this is the signing key, NULL afterwards; unique, so at most one key signs. */
  activeSlot: number | null;
  createdAt: number;
  /** When a newer key replaced it; published until rotatedOutAt + grace window. */
  rotatedOutAt: number | null;
}

export interface AuditEventsTable {
  id: string;
  kind: string;
  occurredAt: number;
  actorType: string | null;
  actorId: string | null;
  organizationId: string | null;
  userId: string | null;
  clientId: string | null;
  ipAddress: string | null;
  dataJson: string;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  memberships: MembershipsTable;
  clients: ClientsTable;
  securitySettings: SecuritySettingsTable;
  signingKeys: SigningKeysTable;
  auditEvents: AuditEventsTable;
}
