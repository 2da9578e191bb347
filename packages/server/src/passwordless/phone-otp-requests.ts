import { clientIdSchema, opaqueTokenSchema } from '@svc/contract';
import { z } from 'zod';

/**
 * SPEC.md SvcPhoneOtpStartRequest: PhoneNumber, ClientId, OrganizationId or null. The number is checked
 * for characters and length here and normalized to E.164 with the provider's default region by the
 * service (libphonenumber-js), which needs the configuration.
 */
export const svcPhoneOtpStartRequestSchema = z.object({
  phoneNumber: z.string().min(1).max(32),
  clientId: clientIdSchema,
  organizationId: z
    .string()
    .min(1)
    .max(200)
    .nullable()
    .optional()
    .transform((v) => v ?? null),
});
export type SvcPhoneOtpStartRequest = z.input<typeof svcPhoneOtpStartRequestSchema>;

/** SPEC.md SvcPhoneOtpVerifyRequest: ChallengeToken, Code (DECISIONS.md: 6 digits). */
export const svcPhoneOtpVerifyRequestSchema = z.object({
  challengeToken: opaqueTokenSchema,
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$/, { error: 'must be the 6-digit code' }),
});
export type SvcPhoneOtpVerifyRequest = z.input<typeof svcPhoneOtpVerifyRequestSchema>;

/** The answer of RequestPhoneOtpAsync; identical in shape (and bytes) for known and unknown numbers. */
export interface SvcPhoneOtpStartResult {
  readonly challengeToken: string;
  /** The normalized E.164 number. */
  readonly phoneNumber: string;
  readonly maskedPhoneNumber: string;
  /** A public message that never says whether the number belongs to an account. */
  readonly message: string;
  /** ISO-8601. */
  readonly expiresAt: string;
  /** ISO-8601: when another code may be requested for this number. */
  readonly nextAllowedSendAt: string;
}
