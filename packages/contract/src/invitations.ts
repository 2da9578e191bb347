import { z } from 'zod';
import { absoluteUriSchema, emailSchema, roleSchema } from './admin.js';
import { optionalText, recordIdSchema, text } from './fields.js';
import { pageQuerySchema } from './paging.js';

/**
 * Email invitations (docs/reference/organizations.md): the operator API bodies and the records of
 * the in-process operations, camelCase. The invitation token never appears in an answer: it only leaves
 * in the emailed InviteUrl.
 */

/** POST /organizations/{organizationId}/invitations. */
export const createInvitationBodySchema = z.object({
  email: emailSchema,
  role: roleSchema,
  clientId: optionalText(text(1, 200)),
  redirectUri: optionalText(absoluteUriSchema),
  customFields: z
    .record(text(1, 100), text(0, 2000))
    .refine((fields) => Object.keys(fields).length <= 50, { message: 'at most 50 fields' })
    .nullish()
    .transform((fields) => fields ?? {}),
});
export type CreateInvitationBody = z.input<typeof createInvitationBodySchema>;

/** POST /invitations/{id}/revoke. */
export const revokeInvitationBodySchema = z.object({
  reason: optionalText(text(1, 500)),
});
export type RevokeInvitationBody = z.input<typeof revokeInvitationBodySchema>;

/** Where an invitation stands; `expired` is a pending one past its expiry. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatusName = (typeof INVITATION_STATUSES)[number];

/** GET /organizations/{organizationId}/invitations: paged, newest first, optionally of one status. */
export const invitationListQuerySchema = pageQuerySchema.extend({
  status: z
    .enum(INVITATION_STATUSES, { error: `status must be one of ${INVITATION_STATUSES.join(', ')}` })
    .optional(),
});
export type InvitationListQuery = z.output<typeof invitationListQuerySchema>;

/**
 * An invitation as the operator API and the in-process operations answer it; never its token.
 * `createdAt`: when it was first sent; `resentAt`: when last sent again (null: never).
 */
export const svcEmailInvitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.enum(INVITATION_STATUSES),
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  resentAt: z.iso.datetime().nullable(),
});
export type SvcEmailInvitationView = z.output<typeof svcEmailInvitationSchema>;
/** The invitation record of the in-process operations (docs/reference/sign-in.md "Invitations" name): the operator API's, field for field. */
export type SvcEmailInvitation = SvcEmailInvitationView;

// ---- In-process requests and results (docs/reference/sign-in.md "Invitations" names) ----------------------------------------------

/** docs/reference/sign-in.md "Invitations" SvcCreateEmailInvitationRequest. */
export interface SvcCreateEmailInvitationRequest {
  readonly organizationId: string;
  readonly email: string;
  readonly role: string;
  readonly clientId?: string | null | undefined;
  readonly redirectUri?: string | null | undefined;
  readonly customFields?: Readonly<Record<string, string>> | null | undefined;
}

/** docs/reference/sign-in.md "Invitations" SvcAcceptEmailInvitationRequest. */
export interface SvcAcceptEmailInvitationRequest {
  readonly invitationToken: string;
  readonly userId: string;
}

/** docs/reference/sign-in.md "Invitations" SvcAcceptEmailInvitationSignupRequest. */
export interface SvcAcceptEmailInvitationSignupRequest {
  readonly invitationToken: string;
  readonly displayName: string;
  readonly clientId: string;
  /** A confidential client's secret (docs/reference/sign-in.md "Direct JSON helpers"). */
  readonly clientSecret?: string | null | undefined;
  readonly customFields?: Readonly<Record<string, string>> | null | undefined;
}

/** CreateEmailInvitationAsync's request: the POST body and the organization of its path. */
export const svcCreateEmailInvitationRequestSchema = createInvitationBodySchema.extend({
  organizationId: recordIdSchema,
});
/** SvcCreateEmailInvitationRequest as the schema parses it: what the invitation service takes. */
export type SvcCreateEmailInvitationInput = z.output<typeof svcCreateEmailInvitationRequestSchema>;

/** ResendEmailInvitationAsync's request: the invitation's id. */
export const svcResendEmailInvitationRequestSchema = z.object({ id: recordIdSchema });

/** RevokeEmailInvitationAsync's request: the id of its path and the optional reason of its body. */
export const svcRevokeEmailInvitationRequestSchema = revokeInvitationBodySchema.extend({
  id: recordIdSchema,
});
/** SvcRevokeEmailInvitationRequest as the schema parses it (the reason trimmed, or null). */
export type SvcRevokeEmailInvitationInput = z.output<typeof svcRevokeEmailInvitationRequestSchema>;

/** docs/reference/sign-in.md "Invitations" SvcResendEmailInvitationRequest. */
export interface SvcResendEmailInvitationRequest {
  readonly id: string;
}

/** docs/reference/sign-in.md "Invitations" SvcRevokeEmailInvitationRequest. */
export interface SvcRevokeEmailInvitationRequest {
  readonly id: string;
  readonly reason?: string | null | undefined;
}

/** What accepting an invitation did: the membership of the user in the organization. */
export interface SvcEmailInvitationAcceptance {
  readonly invitationId: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly role: string;
}
