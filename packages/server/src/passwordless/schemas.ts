import {
  clientIdSchema,
  clientSecretField,
  emailSchema,
  opaqueTokenSchema,
  svcSignupRequestSchema,
} from '@svc/contract';
import { z } from 'zod';
import { signupCustomFieldsSchema } from './phone-otp-requests.js';

/**
 * Request records of email OTP and magic-link sign-in (SPEC.md "Request records"; DECISIONS.md "Magic
 * link (direct)"), camelCase on the wire. Not strict: unknown keys are ignored. Candidates to move into
 * @svc/contract beside svcPasswordLoginRequestSchema. Each carries the optional `clientSecret` of a
 * confidential client (DECISIONS.md "Confidential clients at the direct helpers").
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
  clientSecret: clientSecretField,
  organizationId: nullable(recordId),
});
export type SvcEmailOtpStartRequest = z.input<typeof svcEmailOtpStartRequestSchema>;

/** SvcEmailOtpVerifyRequest {challengeToken, code}; a code is 6 digits (spaces around it are dropped). */
export const svcEmailOtpVerifyRequestSchema = z.object({
  challengeToken: opaqueTokenSchema,
  code: z.string().trim().max(64),
  clientSecret: clientSecretField,
});
export type SvcEmailOtpVerifyRequest = z.input<typeof svcEmailOtpVerifyRequestSchema>;

/**
 * SvcEmailOtpSignupStartRequest {displayName, email, clientId, organizationName, organizationId,
 * customFields}: the name and organization rules are SvcSignupRequest's (a supplied organizationId is
 * rejected: self-service signup never joins an existing organization); customFields as phone signup's.
 */
export const svcEmailOtpSignupStartRequestSchema = z.object({
  displayName: svcSignupRequestSchema.shape.displayName,
  email: emailSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  organizationName: svcSignupRequestSchema.shape.organizationName,
  organizationId: svcSignupRequestSchema.shape.organizationId,
  customFields: signupCustomFieldsSchema,
});
export type SvcEmailOtpSignupStartRequest = z.input<typeof svcEmailOtpSignupStartRequestSchema>;

/** SvcEmailOtpSignupVerifyRequest {signupToken, challengeToken, code}. */
export const svcEmailOtpSignupVerifyRequestSchema = svcEmailOtpVerifyRequestSchema.extend({
  signupToken: opaqueTokenSchema,
});
export type SvcEmailOtpSignupVerifyRequest = z.input<typeof svcEmailOtpSignupVerifyRequestSchema>;

/** Magic-link start {email, clientId, organizationId?}. */
export const svcMagicLinkStartRequestSchema = svcEmailOtpStartRequestSchema;
export type SvcMagicLinkStartRequest = z.input<typeof svcMagicLinkStartRequestSchema>;

/** Magic-link complete {token, clientId}: the link is bound to the client that asked for it. */
export const svcMagicLinkCompleteRequestSchema = z.object({
  token: opaqueTokenSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
});
export type SvcMagicLinkCompleteRequest = z.input<typeof svcMagicLinkCompleteRequestSchema>;

/** Email OTP start result {challengeToken, maskedEmail, expiresAt, nextAllowedSendAt} (ISO-8601 times). */
export interface SvcEmailOtpStartResult {
  readonly challengeToken: string;
  readonly maskedEmail: string;
  readonly expiresAt: string;
  readonly nextAllowedSendAt: string;
}

/** Email OTP signup start result: the start result plus the token that ties the verify to this start. */
export interface SvcEmailOtpSignupStartResult extends SvcEmailOtpStartResult {
  readonly signupToken: string;
}

/** Magic-link start result {maskedEmail, expiresAt, nextAllowedSendAt}. */
export interface SvcMagicLinkStartResult {
  readonly maskedEmail: string;
  readonly expiresAt: string;
  readonly nextAllowedSendAt: string;
}
