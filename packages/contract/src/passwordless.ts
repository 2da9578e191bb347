import { z } from 'zod';
import { emailSchema } from './admin.js';
import { clientIdSchema, clientSecretField, opaqueTokenSchema, svcSignupRequestSchema } from './auth.js';
import { nullable } from './fields.js';

/**
 * Request and result records of email OTP, magic-link and phone OTP sign-in and of the OTP signups
 * (docs/reference/sign-in.md "Email codes", "Sign-in links"), camelCase on the wire. Not strict:
 * unknown keys are ignored. Each request carries the optional `clientSecret` of a confidential client
 * (docs/reference/sign-in.md "Direct JSON helpers").
 */

/** The most keys and the largest JSON text a signup's CustomFields may have (stored until the code is checked). */
export const CUSTOM_FIELDS_MAX_KEYS = 50;
export const CUSTOM_FIELDS_MAX_JSON_LENGTH = 16_384;

/**
 * docs/reference/sign-in.md "Email codes" CustomFields: "JSON object or null". Any JSON values under at most 50 keys of 1-100 characters,
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

// ---- Email OTP and magic links --------------------------------------------------------------------

const recordId = z.string().trim().min(1).max(200);

/** SvcEmailOtpStartRequest {email, clientId, organizationId?}. */
export const svcEmailOtpStartRequestSchema = z.object({
  email: emailSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  organizationId: nullable(recordId),
});
export type SvcEmailOtpStartRequest = z.input<typeof svcEmailOtpStartRequestSchema>;
/** SvcEmailOtpStartRequest as the schema parses it: what the services take. */
export type SvcEmailOtpStartInput = z.output<typeof svcEmailOtpStartRequestSchema>;

/** SvcEmailOtpVerifyRequest {challengeToken, code}; a code is 6 digits (spaces around it are dropped). */
export const svcEmailOtpVerifyRequestSchema = z.object({
  challengeToken: opaqueTokenSchema,
  code: z.string().trim().max(64),
  clientSecret: clientSecretField,
});
export type SvcEmailOtpVerifyRequest = z.input<typeof svcEmailOtpVerifyRequestSchema>;
/** SvcEmailOtpVerifyRequest as the schema parses it: what the services take. */
export type SvcEmailOtpVerifyInput = z.output<typeof svcEmailOtpVerifyRequestSchema>;

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
/** SvcEmailOtpSignupStartRequest as the schema parses it: what the services take. */
export type SvcEmailOtpSignupStartInput = z.output<typeof svcEmailOtpSignupStartRequestSchema>;

/** SvcEmailOtpSignupVerifyRequest {signupToken, challengeToken, code}. */
export const svcEmailOtpSignupVerifyRequestSchema = svcEmailOtpVerifyRequestSchema.extend({
  signupToken: opaqueTokenSchema,
});
export type SvcEmailOtpSignupVerifyRequest = z.input<typeof svcEmailOtpSignupVerifyRequestSchema>;
/** SvcEmailOtpSignupVerifyRequest as the schema parses it: what the services take. */
export type SvcEmailOtpSignupVerifyInput = z.output<typeof svcEmailOtpSignupVerifyRequestSchema>;

/** Magic-link start {email, clientId, organizationId?}. */
export const svcMagicLinkStartRequestSchema = svcEmailOtpStartRequestSchema;
export type SvcMagicLinkStartRequest = z.input<typeof svcMagicLinkStartRequestSchema>;
/** SvcMagicLinkStartRequest as the schema parses it: what the services take. */
export type SvcMagicLinkStartInput = z.output<typeof svcMagicLinkStartRequestSchema>;

/** Magic-link complete {token, clientId}: the link is bound to the client that asked for it. */
export const svcMagicLinkCompleteRequestSchema = z.object({
  token: opaqueTokenSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
});
export type SvcMagicLinkCompleteRequest = z.input<typeof svcMagicLinkCompleteRequestSchema>;
/** SvcMagicLinkCompleteRequest as the schema parses it: what the services take. */
export type SvcMagicLinkCompleteInput = z.output<typeof svcMagicLinkCompleteRequestSchema>;

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

// ---- Phone OTP ------------------------------------------------------------------------------------

/**
 * docs/reference/sign-in.md "Email codes" SvcPhoneOtpStartRequest: PhoneNumber, ClientId, OrganizationId or null. The number is checked
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
/** SvcPhoneOtpStartRequest as the schema parses it: what the services take. */
export type SvcPhoneOtpStartInput = z.output<typeof svcPhoneOtpStartRequestSchema>;

/** docs/reference/sign-in.md "Email codes" SvcPhoneOtpVerifyRequest: ChallengeToken, Code (docs/reference/sign-in.md "Email codes": 6 digits). */
export const svcPhoneOtpVerifyRequestSchema = z.object({
  challengeToken: opaqueTokenSchema,
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$/, { error: 'must be the 6-digit code' }),
  clientSecret: clientSecretField,
});
export type SvcPhoneOtpVerifyRequest = z.input<typeof svcPhoneOtpVerifyRequestSchema>;
/** SvcPhoneOtpVerifyRequest as the schema parses it: what the services take. */
export type SvcPhoneOtpVerifyInput = z.output<typeof svcPhoneOtpVerifyRequestSchema>;

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

/**
 * docs/reference/sign-in.md "Email codes" SvcPhoneOtpSignupStartRequest: DisplayName, PhoneNumber, ClientId, OrganizationName or null,
 * OrganizationId (must be null: self-service signup never joins an existing organization), CustomFields.
 * The name and organization rules are SvcSignupRequest's, taken from its schema.
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
/** SvcPhoneOtpSignupStartRequest as the schema parses it: what the services take. */
export type SvcPhoneOtpSignupStartInput = z.output<typeof svcPhoneOtpSignupStartRequestSchema>;

/** docs/reference/sign-in.md "Email codes" SvcPhoneOtpSignupVerifyRequest: SignupToken, ChallengeToken, Code. */
export const svcPhoneOtpSignupVerifyRequestSchema = svcPhoneOtpVerifyRequestSchema.extend({
  signupToken: opaqueTokenSchema,
});
export type SvcPhoneOtpSignupVerifyRequest = z.input<typeof svcPhoneOtpSignupVerifyRequestSchema>;
/** SvcPhoneOtpSignupVerifyRequest as the schema parses it: what the services take. */
export type SvcPhoneOtpSignupVerifyInput = z.output<typeof svcPhoneOtpSignupVerifyRequestSchema>;

/** The answer of RequestPhoneOtpSignupAsync: the start result plus the token that ties verify to it. */
export interface SvcPhoneOtpSignupStartResult extends SvcPhoneOtpStartResult {
  readonly signupToken: string;
}
