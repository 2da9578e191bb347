import { z } from 'zod';
import { emailSchema, svcMembershipSchema } from './admin.js';
import { booleanQuerySchema, recordIdSchema } from './fields.js';
import { pageQuerySchema, searchQuerySchema } from './paging.js';

/**
 * What an operator console's directory, users and sessions pages read beside the records of admin.ts
 * (docs/reference/operator-api.md "Lists"): the filters of the lists, the records they join, and
 * the answers of the user-support routes. As everywhere in the operator API, an unknown query parameter is
 * ignored and a bad one is a 400 naming it. Every filter narrows the list (AND); keyset paging (`cursor`)
 * works with any of them.
 */

/**
 * GET /users. `query`: an email that starts with it (compared by the lookup key, so ASCII letters in any
 * case), a display name that contains it (in any case), or the user id itself. `organizationId`: the
 * users with an active membership in that organization. `email`: the exact address, by its lookup key.
 */
export const userListQuerySchema = pageQuerySchema.extend({
  query: searchQuerySchema.optional(),
  organizationId: recordIdSchema.optional(),
  active: booleanQuerySchema.optional(),
  email: emailSchema.optional(),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;
export type UserListInput = z.output<typeof userListQuerySchema>;

/** GET /organizations. `query`: a name that contains it, a slug that starts with it, or the id itself. */
export const organizationListQuerySchema = pageQuerySchema.extend({
  query: searchQuerySchema.optional(),
  active: booleanQuerySchema.optional(),
});
export type OrganizationListQuery = z.input<typeof organizationListQuerySchema>;
export type OrganizationListInput = z.output<typeof organizationListQuerySchema>;

/**
 * GET /organizations/{id}/memberships. `query`: a member whose email starts with it or whose display
 * name contains it (as in GET /users); `active`: the membership's own state.
 */
export const membershipListQuerySchema = pageQuerySchema.extend({
  query: searchQuerySchema.optional(),
  active: booleanQuerySchema.optional(),
});
export type MembershipListQuery = z.input<typeof membershipListQuerySchema>;
export type MembershipListInput = z.output<typeof membershipListQuerySchema>;

/** A user as a list of other records shows it beside them. */
export const svcUserSummarySchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  displayName: z.string(),
});
export type SvcUserSummary = z.output<typeof svcUserSummarySchema>;

/** An organization as a list of other records shows it beside them. */
export const svcOrganizationSummarySchema = z.object({ id: z.string(), name: z.string(), slug: z.string() });
export type SvcOrganizationSummary = z.output<typeof svcOrganizationSummarySchema>;

/** An item of GET /organizations/{id}/memberships: the membership and its user. */
export const svcOrganizationMemberSchema = svcMembershipSchema.extend({ user: svcUserSummarySchema });
export type SvcOrganizationMember = z.output<typeof svcOrganizationMemberSchema>;

/** An item of GET /users/{id}/memberships: the membership and its organization. */
export const svcUserMembershipSchema = svcMembershipSchema.extend({
  organization: svcOrganizationSummarySchema,
});
export type SvcUserMembership = z.output<typeof svcUserMembershipSchema>;

/**
 * The 202 of POST /users/{id}/password-reset: how the reset email left. `sent`: the mail server accepted
 * it; `queued`: handed on and not yet confirmed; `outbox`: kept in the email outbox because no mail
 * server is configured (SVC_SMTP_URL), where an operator reads it. A refused send is never a 202.
 */
export const svcPasswordResetDeliverySchema = z.object({
  delivery: z.enum(['sent', 'queued', 'outbox']),
  /** The email's entry in the delivery log (GET /svc/admin/email/api/deliveries). */
  deliveryId: z.string(),
  /** When the link stops working. */
  expiresAt: z.iso.datetime(),
});
export type SvcPasswordResetDelivery = z.output<typeof svcPasswordResetDeliverySchema>;

/** GET /users/{id}/mfa: the user's second factors, never a secret or a code. */
export const svcUserMfaSchema = z.object({
  /** TOTP authenticators: confirmed ones, and an enrollment still in progress (`confirmed: false`). */
  totp: z.array(
    z.object({
      id: z.string(),
      /** The account name the authenticator app shows. */
      label: z.string(),
      createdAt: z.iso.datetime(),
      confirmed: z.boolean(),
      confirmedAt: z.iso.datetime().nullable(),
    }),
  ),
  /** Unused recovery codes. */
  recoveryCodesRemaining: z.number().int(),
});
export type SvcUserMfa = z.output<typeof svcUserMfaSchema>;

/** POST /users/{id}/mfa/reset: what was removed. */
export const svcUserMfaResetResultSchema = z.object({
  removedAuthenticators: z.number().int(),
  removedRecoveryCodes: z.number().int(),
});
export type SvcUserMfaResetResult = z.output<typeof svcUserMfaResetResultSchema>;
