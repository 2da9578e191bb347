import type { ScimGroupRecord, ScimUserRecord } from './repository.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from './schema-names.js';

type Json = Record<string, unknown>;

function meta(resourceType: 'User' | 'Group', location: string, createdAt: number, updatedAt: number): Json {
  return {
    resourceType,
    created: new Date(createdAt).toISOString(),
    lastModified: new Date(updatedAt).toISOString(),
    location,
  };
}

/** The stored attributes of a user with its current userName, externalId and active (what PATCH edits). */
export function userAttributesJson(record: ScimUserRecord): Json {
  return {
    ...record.attributes,
    userName: record.userName,
    active: record.active,
    ...(record.externalId === null ? {} : { externalId: record.externalId }),
  };
}

/** A SCIM User resource (RFC 7643 §4.1): the id is the Svc user id (docs/reference/scim.md). */
export function userResource(record: ScimUserRecord, baseUrl: string): Json {
  const attributes = userAttributesJson(record);
  return {
    schemas: ENTERPRISE_USER_SCHEMA in attributes ? [USER_SCHEMA, ENTERPRISE_USER_SCHEMA] : [USER_SCHEMA],
    id: record.userId,
    ...attributes,
    meta: meta('User', `${baseUrl}/Users/${record.userId}`, record.createdAt, record.updatedAt),
  };
}

/** The attributes of a group (what PATCH edits). */
export function groupAttributesJson(record: ScimGroupRecord, memberIds: readonly string[]): Json {
  return {
    displayName: record.displayName,
    ...(record.externalId === null ? {} : { externalId: record.externalId }),
    members: memberIds.map((value) => ({ value })),
  };
}

/** A SCIM Group resource (RFC 7643 §4.2); members are `{value, $ref}` of the connection's users. */
export function groupResource(record: ScimGroupRecord, memberIds: readonly string[], baseUrl: string): Json {
  return {
    schemas: [GROUP_SCHEMA],
    id: record.id,
    displayName: record.displayName,
    ...(record.externalId === null ? {} : { externalId: record.externalId }),
    members: memberIds.map((value) => ({ value, $ref: `${baseUrl}/Users/${value}` })),
    meta: meta('Group', `${baseUrl}/Groups/${record.id}`, record.createdAt, record.updatedAt),
  };
}
