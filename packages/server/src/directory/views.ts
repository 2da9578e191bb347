import type {
  SvcClient,
  SvcMembership,
  SvcOrganization,
  SvcOrganizationMember,
  SvcUser,
  SvcUserMembership,
} from '@svc/contract';
import { toIso } from '../kernel/clock.js';
import type {
  ClientRecord,
  MembershipRecord,
  OrganizationMemberRecord,
  OrganizationRecord,
  UserMembershipRecord,
  UserRecord,
} from './repository.js';

/** Records as the operator API shows them: ISO-8601 UTC times, never a hash. */

export function toSvcOrganization(record: OrganizationRecord): SvcOrganization {
  return {
    id: record.id,
    name: record.name,
    slug: record.slug,
    primaryDomain: record.primaryDomain,
    active: record.active,
    createdAt: toIso(record.createdAt),
  };
}

export function toSvcUser(record: UserRecord): SvcUser {
  return {
    id: record.id,
    displayName: record.displayName,
    email: record.email,
    emailVerified: record.emailVerified,
    hasPassword: record.passwordHash !== null,
    isOperator: record.isOperator,
    active: record.active,
    createdAt: toIso(record.createdAt),
  };
}

export function toSvcMembership(record: MembershipRecord): SvcMembership {
  return {
    id: record.id,
    organizationId: record.organizationId,
    userId: record.userId,
    role: record.role,
    active: record.active,
    createdAt: toIso(record.createdAt),
  };
}

/** A membership with its user (an organization's member list). */
export function toSvcOrganizationMember(record: OrganizationMemberRecord): SvcOrganizationMember {
  const { id, email, displayName } = record.user;
  return { ...toSvcMembership(record), user: { id, email, displayName } };
}

/** A membership with its organization (a user's membership list). */
export function toSvcUserMembership(record: UserMembershipRecord): SvcUserMembership {
  const { id, name, slug } = record.organization;
  return { ...toSvcMembership(record), organization: { id, name, slug } };
}

export function toSvcClient(record: ClientRecord): SvcClient {
  return {
    id: record.id,
    clientId: record.clientId,
    name: record.name,
    audience: record.audience,
    redirectUris: [...record.redirectUris],
    postLogoutRedirectUris: [...record.postLogoutRedirectUris],
    isFirstParty: record.isFirstParty,
    allowedScopes: [...record.allowedScopes],
    allowedResources: [...record.allowedResources],
    tokenEndpointAuthMethod: record.tokenEndpointAuthMethod,
    allowDeviceAuthorization: record.allowDeviceAuthorization,
    allowClientCredentials: record.allowClientCredentials,
    active: record.active,
    accessMode: record.access.mode,
    createdAt: toIso(record.createdAt),
    registration:
      record.registration === null
        ? null
        : {
            ...record.registration,
            document:
              record.registration.document === null
                ? null
                : {
                    fetchedAt: toIso(record.registration.document.fetchedAt),
                    freshUntil: toIso(record.registration.document.freshUntil),
                  },
            firstUsedAt:
              record.registration.firstUsedAt === null ? null : toIso(record.registration.firstUsedAt),
          },
  };
}
