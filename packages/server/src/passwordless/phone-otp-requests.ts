import { clientIdSchema, clientSecretField, opaqueTokenSchema, svcSignupRequestSchema } from '@svc/contract';
import { z } from 'zod';

/**
 * SPEC.md SvcPhoneOtpStartRequest: PhoneNumber, ClientId, OrganizationId or null. The number is checked
 * for characters and length here and normalized to E.164 with the provider's default region by the
 * service (libphonenumber-js), which needs the configuration.
 */
export const svcPhoneOtpStartRequestSchema = z.object({
  phoneNumber: z.string().min(1).max(32),
  clientId: clientIdSchema,
  clientSecret: clientSecretField,
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
  clientSecret: clientSecretField,
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

/** The most keys and the largest JSON text a signup's CustomFields may have (stored until the code is checked). */
export const CUSTOM_FIELDS_MAX_KEYS = 50;
export const CUSTOM_FIELDS_MAX_JSON_LENGTH = 16_384;

/**
 * SPEC.md CustomFields: "JSON object or null". Any JSON values under at most 50 keys of 1-100 characters,
 * at most 16 KiB as JSON text; null or omitted is null.
 */
export const signupCustomFieldsSchema = z
  .record(z.string().min(1).max(100), z.json())
  .refine((fields) => Object.keys(fields).length <= CUSTOM_FIELDS_MAX_KEYS, {
    message: `must have at most ${CUSTOM_FIELDS_MAX_KEYS} fields`,
  })
  .refine((fields) => JSON.stringify(fields).length <= CUSTOM_FIELDS_MAX_JSON_LENGTH, {
    message: `must be at most ${CUSTOM_FIELDS_MAX_JSON_LENGTH} characters as JSON`,
  })
  .nullish()
  .transform((fields): Record<string, unknown> | null => fields ?? null);

/**
 * SPEC.md SvcPhoneOtpSignupStartRequest: DisplayName, PhoneNumber, ClientId, OrganizationName or null,
 * OrganizationId (must be null: self-service signup never joins an existing organization), CustomFields.
 * The name and organization rules are SvcSignupRequest's, taken from the contract schema.
 */
export const svcPhoneOtpSignupStartRequestSchema = z.object({
  displayName: svcSignupRequestSchema.shape.displayName,
  phoneNumber: svcPhoneOtpStartRequestSchema.shape.phoneNumber,
  clientId: clientIdSchema,
  clientSecret: clientSecretField,
  organizationName: svcSignupRequestSchema.shape.organizationName,
  organizationId: svcSignupRequestSchema.shape.organizationId,
  customFields: signupCustomFieldsSchema,
});
export type SvcPhoneOtpSignupStartRequest = z.input<typeof svcPhoneOtpSignupStartRequestSchema>;

/** SPEC.md SvcPhoneOtpSignupVerifyRequest: SignupToken, ChallengeToken, Code. */
export const svcPhoneOtpSignupVerifyRequestSchema = svcPhoneOtpVerifyRequestSchema.extend({
  signupToken: opaqueTokenSchema,
});
export type SvcPhoneOtpSignupVerifyRequest = z.input<typeof svcPhoneOtpSignupVerifyRequestSchema>;

/** The answer of RequestPhoneOtpSignupAsync: the start result plus the token that ties verify to it. */
export interface SvcPhoneOtpSignupStartResult extends SvcPhoneOtpStartResult {
  readonly signupToken: string;
}
