import { z } from 'zod';
import { absoluteUriSchema, emailSchema, roleSchema } from './admin.js';
import { optionalText, text } from './fields.js';

/**
 * Operator API bodies for email invitations (DECISIONS.md "Invitations (operator)"), camelCase. The
 * invitation token never appears in any of these: it only leaves in the emailed InviteUrl.
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

/** An invitation as the operator API answers it. */
export const svcEmailInvitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  email: z.string(),
  role: z.string(),
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
  expiresAt: z.iso.datetime(),
});
export type SvcEmailInvitationView = z.output<typeof svcEmailInvitationSchema>;
