/** The schema URNs of the SCIM resources Svc serves (RFC 7643 §4, §8.7). */
export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The extension schemas a resource type carries, by their canonical spelling. */
export const EXTENSION_SCHEMAS: Readonly<Record<'User' | 'Group', readonly string[]>> = {
  User: [ENTERPRISE_USER_SCHEMA],
  Group: [],
};

/**
 * Canonical spellings of the attribute names Svc stores. SCIM attribute names are case-insensitive
 * (RFC 7643 §2.1), so what a client sends is mapped onto these before it is read.
 */
const ATTRIBUTE_NAMES = [
  'schemas',
  'id',
  'externalId',
  'meta',
  'userName',
  'name',
  'displayName',
  'nickName',
  'profileUrl',
  'title',
  'userType',
  'preferredLanguage',
  'locale',
  'timezone',
  'active',
  'password',
  'emails',
  'phoneNumbers',
  'addresses',
  'groups',
  'members',
  'formatted',
  'familyName',
  'givenName',
  'middleName',
  'honorificPrefix',
  'honorificSuffix',
  'value',
  'display',
  'type',
  'primary',
  'streetAddress',
  'locality',
  'region',
  'postalCode',
  'country',
  'employeeNumber',
  'costCenter',
  'organization',
  'division',
  'department',
  'manager',
  '$ref',
  ENTERPRISE_USER_SCHEMA,
];

const BY_LOWER = new Map(ATTRIBUTE_NAMES.map((name) => [name.toLowerCase(), name]));

/** The canonical spelling of an attribute name, or the name as given when Svc does not know it. */
export function canonicalName(name: string): string {
  return BY_LOWER.get(name.toLowerCase()) ?? name;
}

/** A JSON value with every object key in its canonical spelling, at every depth. */
export function canonicalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [canonicalName(key), canonicalKeys(item)]),
  );
}
