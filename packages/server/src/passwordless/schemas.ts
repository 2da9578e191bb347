import { clientIdSchema, emailSchema, opaqueTokenSchema } from '@svc/contract';
import { z } from 'zod';

/**
 * Request records of email OTP and magic-link sign-in (SPEC.md "Request records"; DECISIONS.md "Magic
 * link (direct)"), camelCase on the wire. Not strict: unknown keys are ignored. Candidates to move into
 * @svc/contract beside svcPasswordLoginRequestSchema.
 */

/** Optional and nullable on the wire; null in the parsed output when omitted. */
function nullable<T extends z.ZodType>(schema: T) {
  return schema
    .nullish()
    .transform((value): z.output<T> | null => (value === undefined ? null : (value as z.output<T> | null)));
}

const recordId = z.string().trim().min(1).max(200);

/** SvcEmailOtpStartRequest {email, clientId, organizationId?}. */
export const svcEmailOtpStartRequestSchema = z.object({
  email: emailSchema,
  clientId: nullable(clientIdSchema),
  organizationId: nullable(recordId),
});
export type SvcEmailOtpStartRequest = z.input<typeof svcEmailOtpStartRequestSchema>;

/** SvcEmailOtpVerifyRequest {challengeToken, code}; a code is 6 digits (spaces around it are dropped). */
export const svcEmailOtpVerifyRequestSchema = z.object({
  challengeToken: opaqueTokenSchema,
  code: z.string().trim().max(64),
});
export type SvcEmailOtpVerifyRequest = z.input<typeof svcEmailOtpVerifyRequestSchema>;

/** Magic-link start {email, clientId, organizationId?}. */
export const svcMagicLinkStartRequestSchema = svcEmailOtpStartRequestSchema;
export type SvcMagicLinkStartRequest = z.input<typeof svcMagicLinkStartRequestSchema>;

/** Magic-link complete {token, clientId}: the link is bound to the client that asked for it. */
export const svcMagicLinkCompleteRequestSchema = z.object({
  token: opaqueTokenSchema,
  clientId: nullable(clientIdSchema),
});
export type SvcMagicLinkCompleteRequest = z.input<typeof svcMagicLinkCompleteRequestSchema>;

/** Email OTP start result {challengeToken, maskedEmail, expiresAt, nextAllowedSendAt} (ISO-8601 times). */
export interface SvcEmailOtpStartResult {
  readonly challengeToken: string;
  readonly maskedEmail: string;
  readonly expiresAt: string;
  readonly nextAllowedSendAt: string;
}

/** Magic-link start result {maskedEmail, expiresAt, nextAllowedSendAt}. */
export interface SvcMagicLinkStartResult {
  readonly maskedEmail: string;
  readonly expiresAt: string;
  readonly nextAllowedSendAt: string;
}
