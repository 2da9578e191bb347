/** SCIM connections (migration 0027). */
export interface ScimConnectionsTable {
  id: string;
  organizationId: string;
  displayName: string;
  enabled: number;
  /** SHA-256 hex of the bearer token; the token itself is never stored. */
  tokenHash: string;
  grantBoundaryResourceId: string | null;
  /** `dashboard` (made through the API) or `code` (seeded from `createSvc({ scim })`). */
  owner: string;
  createdAt: number;
  updatedAt: number;
}

/** The users a connection provisioned: the Svc user and the SCIM resource the IdP last sent. */
export interface ScimUsersTable {
  connectionId: string;
  userId: string;
  userName: string;
  /** Upper-cased userName: SCIM compares userName case-insensitively (RFC 7643 §4.1.1). */
  userNameKey: string;
  externalId: string | null;
  // `email_key` (0027) is left out: since 0031 only nodes of the earlier release write it.
  active: number;
  /** The stored SCIM resource (name, emails, enterprise extension…) as JSON text. */
  resourceJson: string;
  /** 1 when this connection created the Svc user (0 when it linked an existing account). */
  createdUser: number;
  createdAt: number;
  updatedAt: number;
}

/** The addresses of each SCIM user's `emails`, for the `emails.value eq` filter (migration 0031). */
export interface ScimUserEmailsTable {
  connectionId: string;
  userId: string;
  /** The email lookup key of the item's value (docs/reference/organizations.md "Email identity"). */
  emailKey: string;
  /** The item's type in lower case; '' without one. */
  typeKey: string;
}

export interface ScimGroupsTable {
  id: string;
  connectionId: string;
  displayName: string;
  displayNameKey: string;
  externalId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ScimGroupMembersTable {
  groupId: string;
  userId: string;
}

export interface ScimSyncEventsTable {
  id: string;
  connectionId: string;
  kind: string;
  /** `succeeded` or `failed`. */
  outcome: string;
  resourceType: string | null;
  resourceId: string | null;
  message: string | null;
  dataJson: string;
  createdAt: number;
}

/** SCIM group mapping rules (migration 0030). */
export interface ScimMappingsTable {
  id: string;
  connectionId: string;
  displayName: string;
  groupDisplayName: string | null;
  groupExternalId: string | null;
  roleId: string;
  resourceId: string;
  enabled: number;
  createdAt: number;
  updatedAt: number;
}
