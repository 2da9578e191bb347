import { z } from 'zod';
import { recordIdSchema } from './fields.js';
import { pageQuerySchema } from './paging.js';

/**
 * The customer SSO setup portal (docs/reference/federation.md): the operator's setup links, and what the portal shows of a test
 * sign-in. The portal API's bodies are the operator bodies of SSO connections and domain claims.
 */

/** The `{organizationId}` of `POST/GET /organizations/{organizationId}/sso-portal/sessions`. */
export const ssoPortalOrganizationPathSchema = z.object({ organizationId: recordIdSchema });

/** The `{id}` of `POST /sso-portal/sessions/{id}/revoke`. */
export const ssoPortalLinkPathSchema = z.object({ id: recordIdSchema });

/** A new setup link: the URL carries the one-time token and is shown only in this answer. */
export const svcSsoPortalLinkCreatedSchema = z.object({
  id: z.string(),
  url: z.string(),
  expiresAt: z.iso.datetime(),
});
export type SvcSsoPortalLinkCreated = z.output<typeof svcSsoPortalLinkCreatedSchema>;

/** Where a setup link stands: not yet opened, opened (exchanged for a portal session), revoked, expired. */
export const svcSsoPortalLinkStatusSchema = z.enum(['unused', 'used', 'revoked', 'expired']);
export type SvcSsoPortalLinkStatus = z.output<typeof svcSsoPortalLinkStatusSchema>;

/** A setup link as listed: never its token. */
export const svcSsoPortalLinkSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  status: svcSsoPortalLinkStatusSchema,
  createdAt: z.iso.datetime(),
  expiresAt: z.iso.datetime(),
  usedAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
});
export type SvcSsoPortalLink = z.output<typeof svcSsoPortalLinkSchema>;

/** Query of `GET /sso-portal/sessions`, every organization's links: the paging fields and optionally one organization. */
export const ssoPortalLinkListQuerySchema = pageQuerySchema.extend({
  organizationId: recordIdSchema.optional(),
});
export type SsoPortalLinkListQuery = z.input<typeof ssoPortalLinkListQuerySchema>;
export type SsoPortalLinkListInput = z.output<typeof ssoPortalLinkListQuerySchema>;

/** The last test sign-in of a portal session: what the IdP asserted, or why it was refused. */
export const svcSsoPortalTestResultSchema = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('accepted'),
    connectionId: z.string(),
    at: z.iso.datetime(),
    nameId: z.string(),
    nameIdFormat: z.string().nullable(),
    email: z.string(),
    attributes: z.record(z.string(), z.array(z.string())),
  }),
  z.object({
    outcome: z.literal('refused'),
    connectionId: z.string(),
    at: z.iso.datetime(),
    message: z.string(),
  }),
]);
export type SvcSsoPortalTestResult = z.output<typeof svcSsoPortalTestResultSchema>;
