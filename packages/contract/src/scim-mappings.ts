import { z } from 'zod';
import { recordIdSchema, text } from './fields.js';

/**
 * SCIM group mapping rules (docs/reference/scim.md: "mapping rule", the mapping routes and the SCIM
 * boundary error codes; docs/reference/scim.md `{displayName, match: {groupDisplayName?,
 * groupExternalId?}, roleId, resourceId, enabled}`): the members of a matching SCIM group get the role on
 * the resource, managed by the connection, while the resource is inside the connection's grant boundary.
 */

/**
 * Which SCIM groups a rule matches: the display name (compared case-insensitively, as SCIM compares it),
 * the externalId (exactly), or both (a group must match both). The limits are those of a SCIM Group.
 */
export const scimMappingMatchSchema = z
  .object({
    groupDisplayName: text(1, 256).optional(),
    groupExternalId: z.string().min(1).max(2048).optional(),
  })
  .refine((match) => match.groupDisplayName !== undefined || match.groupExternalId !== undefined, {
    message: 'must name groupDisplayName, groupExternalId or both',
  });
export type ScimMappingMatch = z.output<typeof scimMappingMatchSchema>;

/** POST /scim-connections/{connectionId}/mappings: a rule, enabled unless `enabled` is false. */
export const createScimMappingBodySchema = z.object({
  displayName: text(1, 200),
  match: scimMappingMatchSchema,
  roleId: recordIdSchema,
  resourceId: recordIdSchema,
  enabled: z.boolean().default(true),
});
export type CreateScimMappingBody = z.input<typeof createScimMappingBodySchema>;
export type CreateScimMappingInput = z.output<typeof createScimMappingBodySchema>;

/** PUT /scim-mappings/{mappingId}: what is given changes (`match` is replaced whole). */
export const updateScimMappingBodySchema = z.object({
  displayName: text(1, 200).optional(),
  match: scimMappingMatchSchema.optional(),
  roleId: recordIdSchema.optional(),
  resourceId: recordIdSchema.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateScimMappingBody = z.input<typeof updateScimMappingBodySchema>;
export type UpdateScimMappingInput = z.output<typeof updateScimMappingBodySchema>;

/** The `{mappingId}` of a mapping rule route. */
export const scimMappingPathSchema = z.object({ id: recordIdSchema });

/**
 * docs/reference/scim.md: whether the rule can grant now. `configured`: the boundary
 * exists and the resource is it or below it; `missing` / `not_found`: the connection's boundary is unset
 * or names no resource; `outside_boundary`: the resource is outside the boundary (or gone);
 * `hierarchy_invalid`: the resource's ancestor chain has a cycle or is deeper than the tree allows.
 */
export const scimMappingBoundaryStatusSchema = z.enum([
  'configured',
  'missing',
  'not_found',
  'outside_boundary',
  'hierarchy_invalid',
]);
export type ScimMappingBoundaryStatus = z.output<typeof scimMappingBoundaryStatusSchema>;

/** A mapping rule as operators read it. */
export const svcScimMappingSchema = z.object({
  id: z.string(),
  connectionId: z.string(),
  displayName: z.string(),
  match: z.object({ groupDisplayName: z.string().nullable(), groupExternalId: z.string().nullable() }),
  roleId: z.string(),
  resourceId: z.string(),
  enabled: z.boolean(),
  grantBoundaryStatus: scimMappingBoundaryStatusSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type SvcScimMapping = z.output<typeof svcScimMappingSchema>;
