import { SCIM_SCHEMAS, type AttributeSpec } from './attribute-schemas.js';
import { ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA, USER_SCHEMA } from './schema-names.js';

type Json = Record<string, unknown>;

/** The most resources one list page returns (`count` above it is lowered, RFC 7644 §3.4.2.4). */
export const MAX_PAGE_SIZE = 200;

/**
 * RFC 7643 §5 and docs/reference/scim.md "Protocol rules": PATCH and filters yes; bulk, sort, ETags and
 * password changes no.
 */
export function serviceProviderConfig(baseUrl: string): Json {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_PAGE_SIZE },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'The token issued when the SCIM connection is created or its token rotated.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

/** RFC 7643 §6: User (with the enterprise extension) and Group. */
export function resourceTypes(baseUrl: string): Json[] {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      description: 'A Svc user with a membership in the connection’s organization',
      schema: USER_SCHEMA,
      schemaExtensions: [{ schema: ENTERPRISE_USER_SCHEMA, required: false }],
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      description: 'A group of the connection’s users',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

function attribute(spec: AttributeSpec): Json {
  return {
    name: spec.name,
    type: spec.type ?? 'string',
    multiValued: spec.multiValued ?? false,
    description: spec.name,
    required: spec.required ?? false,
    caseExact: false,
    mutability: spec.mutability ?? 'readWrite',
    returned: 'default',
    uniqueness: spec.uniqueness ?? 'none',
    ...(spec.subAttributes === undefined ? {} : { subAttributes: spec.subAttributes.map(attribute) }),
  };
}

/** RFC 7643 §7: the schemas of the attributes Svc stores. */
export function schemas(baseUrl: string): Json[] {
  return SCIM_SCHEMAS.map((schema) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Schema'],
    id: schema.id,
    name: schema.name,
    description: schema.name,
    attributes: schema.attributes.map(attribute),
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.id}` },
  }));
}
