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
