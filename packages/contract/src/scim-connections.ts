import { z } from 'zod';
import { organizationRefSchema } from './connection-lists.js';
import { recordIdSchema, text } from './fields.js';
import { pageQuerySchema } from './paging.js';

/**
 * SCIM connections (docs/reference/scim.md): the
 * operator bodies of `/organizations/{organizationId}/scim-connections` and `/scim-connections/{id}`,
 * the record their answers carry, and the sync events, camelCase.
 */

/** docs/reference/limits.md "Sizes and lengths": a grant boundary resource ID is at most 256 characters. */
export const GRANT_BOUNDARY_MAX_LENGTH = 256;

/**
 * A grant boundary resource id as a body carries it. Its length rule is the server's
 * (`grant_boundary_invalid`, the boundary error codes of docs/reference/scim.md), so any string passes here.
 */
const grantBoundaryIdSchema = z.string().trim().min(1).max(10_000);

/** POST /organizations/{organizationId}/scim-connections: a disabled connection and its one-time token. */
export const createScimConnectionBodySchema = z.object({
  displayName: text(1, 200).optional(),
  grantBoundaryResourceId: grantBoundaryIdSchema.nullish(),
});
export type CreateScimConnectionBody = z.input<typeof createScimConnectionBodySchema>;

/** The in-process request: the body's fields with the organization. */
export const createScimConnectionRequestSchema = createScimConnectionBodySchema.extend({
  organizationId: recordIdSchema,
});
export type CreateScimConnectionRequest = z.input<typeof createScimConnectionRequestSchema>;
export type CreateScimConnectionInput = z.output<typeof createScimConnectionRequestSchema>;

/**
 * PUT /scim-connections/{id}: display name, enabled state, boundary. docs/reference/scim.md: the boundary "can be
 * changed but not removed through the API; in PUT omit or send null to keep it".
 */
export const updateScimConnectionBodySchema = z.object({
  displayName: text(1, 200).optional(),
  enabled: z.boolean().optional(),
  grantBoundaryResourceId: grantBoundaryIdSchema.nullish(),
});
export type UpdateScimConnectionBody = z.input<typeof updateScimConnectionBodySchema>;
export type UpdateScimConnectionInput = z.output<typeof updateScimConnectionBodySchema>;

/** The `{id}` of a SCIM connection route. */
export const scimConnectionPathSchema = z.object({ id: recordIdSchema });

/** The `{organizationId}` of the organization's SCIM connection routes. */
export const scimOrganizationPathSchema = z.object({ organizationId: recordIdSchema });

/** Query of GET /scim-connections/{id}/sync-events: the paging fields and an optional outcome. */
export const scimSyncEventQuerySchema = pageQuerySchema.extend({
  outcome: z.enum(['succeeded', 'failed']).optional(),
});
export type ScimSyncEventQuery = z.output<typeof scimSyncEventQuerySchema>;

// ---- Records --------------------------------------------------------------------------------------

/** docs/reference/scim.md: the boundary and whether it is usable. */
export const svcGrantBoundarySchema = z.object({
  resourceId: z.string().nullable(),
  status: z.enum(['configured', 'missing', 'not_found']),
});
export type SvcGrantBoundary = z.output<typeof svcGrantBoundarySchema>;

/** A SCIM connection as operators read it: never its token. */
export const svcScimConnectionSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  displayName: z.string(),
  /** `{PublicOrigin}{ScimBasePath}`, what the identity provider is configured with. */
  baseUrl: z.string(),
  enabled: z.boolean(),
  grantBoundary: svcGrantBoundarySchema,
  /** `dashboard` (made through the API) or `code` (seeded from `createSvc({ scim })`). */
  owner: z.enum(['dashboard', 'code']),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SvcScimConnection = z.output<typeof svcScimConnectionSchema>;

/** The answer of create and of token rotation: the connection and its bearer token, shown this once. */
export const svcScimConnectionWithTokenSchema = svcScimConnectionSchema.extend({ token: z.string() });
export type SvcScimConnectionWithToken = z.output<typeof svcScimConnectionWithTokenSchema>;

/** One persisted piece of SCIM activity or reconciliation error. */
export const svcScimSyncEventSchema = z.object({
  id: z.string(),
  connectionId: z.string(),
  /** `scim.user.created`, `scim.group.members_changed`, `scim.grant.outside_boundary`… */
  kind: z.string(),
  outcome: z.enum(['succeeded', 'failed']),
  resourceType: z.enum(['User', 'Group']).nullable(),
  resourceId: z.string().nullable(),
  message: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  occurredAt: z.iso.datetime(),
});
export type SvcScimSyncEvent = z.output<typeof svcScimSyncEventSchema>;

/** An entry of the console-wide `GET /scim-connections`: the connection (never its token) and its organization. */
export const svcScimConnectionListItemSchema = svcScimConnectionSchema.extend({
  organization: organizationRefSchema,
});
export type SvcScimConnectionListItem = z.output<typeof svcScimConnectionListItemSchema>;
