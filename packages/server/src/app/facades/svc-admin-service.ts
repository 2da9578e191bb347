import { composeOperations, type Operations } from './operations.js';
import type { SvcAdminDirectory } from './svc-admin-directory.js';
import type { SvcAdminDomainClaims } from './svc-admin-domain-claims.js';
import type { SvcAdminOidcConnections } from './svc-admin-oidc-connections.js';
import type { SvcAdminRecords } from './svc-admin-records.js';
import type { SvcAdminScimConnections } from './svc-admin-scim-connections.js';
import type { SvcAdminScimMappings } from './svc-admin-scim-mappings.js';
import type { SvcAdminScopeDisplayNames } from './svc-admin-scope-display-names.js';
import type { SvcAdminSessions } from './svc-admin-sessions.js';
import type { SvcAdminSettings } from './svc-admin-settings.js';
import type { SvcAdminSsoConnections } from './svc-admin-sso-connections.js';
import type { SvcAdminSsoPortal } from './svc-admin-sso-portal.js';
import type { SvcAdminUserGrants } from './svc-admin-user-grants.js';

export type { AdminActor } from '../../audit/actor.js';

/**
 * SvcAdminService: the in-process operator API, and what the operator HTTP routes call
 * (docs/reference/operator-api.md). Every request is validated with the same contract schema as the
 * HTTP body, so an in-process caller gets the same 400s (SvcValidationError) as a caller over HTTP.
 * Errors: SvcValidationError (400), SvcNotFoundError (404), SvcConflictError (409).
 *
 * The optional `actor` of the write operations is recorded in the audit log; without it the actor is
 * `system`. The operations come from the groups of {@link SvcAdminGroups}, one file each; every
 * operation is a function of its own, callable without `this`.
 */
export interface SvcAdminService
  extends
    Operations<SvcAdminDirectory>,
    Operations<SvcAdminRecords>,
    Operations<SvcAdminUserGrants>,
    Operations<SvcAdminSettings>,
    Operations<SvcAdminSessions>,
    Operations<SvcAdminOidcConnections>,
    Operations<SvcAdminSsoConnections>,
    Operations<SvcAdminSsoPortal>,
    Operations<SvcAdminScimConnections>,
    Operations<SvcAdminScimMappings>,
    Operations<SvcAdminDomainClaims>,
    Operations<SvcAdminScopeDisplayNames> {}

/** The groups SvcAdminService is made of, each built with the few services it calls. */
export interface SvcAdminGroups {
  /** Create and list organizations, users, memberships and clients. */
  readonly directory: SvcAdminDirectory;
  /** Read, update, deactivate and reactivate them; users' second factors; client secrets. */
  readonly records: SvcAdminRecords;
  /** Users' consent grants and linked provider identities. */
  readonly userGrants: SvcAdminUserGrants;
  /** Security settings, MFA settings and organization MFA policies. */
  readonly settings: SvcAdminSettings;
  /** Token sessions: list, preview and revoke. */
  readonly sessions: SvcAdminSessions;
  readonly oidcConnections: SvcAdminOidcConnections;
  readonly ssoConnections: SvcAdminSsoConnections;
  readonly ssoPortal: SvcAdminSsoPortal;
  readonly scimConnections: SvcAdminScimConnections;
  readonly scimMappings: SvcAdminScimMappings;
  readonly domainClaims: SvcAdminDomainClaims;
  readonly scopeDisplayNames: SvcAdminScopeDisplayNames;
}

/** The operator API made of its groups: every group's operations on one object. */
export function svcAdminService(groups: SvcAdminGroups): SvcAdminService {
  return composeOperations<SvcAdminService>(groups);
}
