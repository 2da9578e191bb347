import { z } from 'zod';
import { booleanQuerySchema, recordIdSchema } from './fields.js';
import { pageQuerySchema } from './paging.js';

/**
 * The console-wide lists of SAML SSO and SCIM connections (`GET /svc/admin/auth/api/sso-connections`,
 * `/scim-connections`): every organization's, newest first, each naming its organization.
 */

/** Query of both lists: the paging fields, and optionally one organization and the enabled state. */
export const connectionListQuerySchema = pageQuerySchema.extend({
  organizationId: recordIdSchema.optional(),
  enabled: booleanQuerySchema.optional(),
});
export type ConnectionListQuery = z.input<typeof connectionListQuerySchema>;
export type ConnectionListInput = z.output<typeof connectionListQuerySchema>;

/** The organization a listed connection belongs to. */
export const organizationRefSchema = z.object({ id: z.string(), name: z.string() });
export type OrganizationRef = z.output<typeof organizationRefSchema>;
