import { z } from 'zod';
import { roleSchema } from './admin.js';
import { clientSecretField, opaqueTokenSchema, svcTokenResponseSchema } from './auth.js';
import { optionalText, text } from './fields.js';

/**
 * Multi-factor authentication records (docs/reference/sign-in.md "Multi-factor authentication", "Organization MFA policy", the TOTP
 * request/result records), camelCase on the wire like every direct and operator body.
 */

/** The factors docs/reference/sign-in.md "Multi-factor authentication" names: an authenticator app's code and a one-time recovery code. */
export const MFA_FACTORS = ['totp', 'recovery_code'] as const;
export type MfaFactor = (typeof MFA_FACTORS)[number];

/** Roles as memberships store them (trimmed, lower-cased), so that a policy on `Admin` covers `admin`. */
const roleListSchema = z.array(roleSchema).max(50);
const factorListSchema = z.array(z.enum(MFA_FACTORS)).max(MFA_FACTORS.length);

/** The global MFA settings (GET and PUT /settings/mfa; getMfaSettingsAsync, updateMfaSettingsAsync). */
export const svcMfaSettingsSchema = z.object({
  enabled: z.boolean(),
  totpEnabled: z.boolean(),
  userSelfEnrollmentEnabled: z.boolean(),
  recoveryCodesEnabled: z.boolean(),
  requireForAllUsers: z.boolean(),
  requireForOwnersAndAdmins: z.boolean(),
  requiredRoles: roleListSchema,
  availableFactors: factorListSchema,
});
export type SvcMfaSettings = z.output<typeof svcMfaSettingsSchema>;
export type SvcMfaSettingsInput = z.input<typeof svcMfaSettingsSchema>;

/** An organization's MFA policy (GET and PUT /organizations/{organizationId}/mfa-policy). */
export const svcOrganizationMfaPolicySchema = z.object({
  isEnabled: z.boolean(),
  requireMfaForAllUsers: z.boolean(),
  requireMfaForOwnersAndAdmins: z.boolean(),
  userSelfEnrollmentEnabled: z.boolean(),
  recoveryCodesEnabled: z.boolean(),
  requiredRoles: roleListSchema,
  availableFactors: factorListSchema,
});
export type SvcOrganizationMfaPolicy = z.output<typeof svcOrganizationMfaPolicySchema>;
export type SvcOrganizationMfaPolicyInput = z.input<typeof svcOrganizationMfaPolicySchema>;

/**
 * The `{organizationId}` of `/organizations/{organizationId}/mfa-policy`: any string, because an id that
 * names no organization, malformed or not, is the policy's 404 (the server decides, before any query).
 */
export const organizationMfaPolicyPathSchema = z.object({ organizationId: z.string() });

/** A code as typed: digits of an authenticator app or a recovery code; spaces around it are dropped. */
const mfaCodeSchema = z.string().trim().min(1).max(64);

/**
 * SvcMfaChallengeVerifyRequest {mfaToken, code (TOTP or recovery code)}; `clientSecret` authenticates a
 * confidential client (or HTTP Basic over HTTP).
 */
export const svcMfaChallengeVerifyRequestSchema = z.object({
  mfaToken: opaqueTokenSchema,
  code: mfaCodeSchema,
  clientSecret: clientSecretField,
});
export type SvcMfaChallengeVerifyRequest = z.input<typeof svcMfaChallengeVerifyRequestSchema>;
/** SvcMfaChallengeVerifyRequest as the schema parses it: what the services take. */
export type SvcMfaChallengeVerifyInput = z.output<typeof svcMfaChallengeVerifyRequestSchema>;

/** SvcTotpEnrollmentStartRequest: the label the authenticator app shows (optional; the email by default). */
export const svcTotpEnrollmentStartRequestSchema = z.object({
  label: optionalText(text(1, 100)),
});
export type SvcTotpEnrollmentStartRequest = z.input<typeof svcTotpEnrollmentStartRequestSchema>;
/** SvcTotpEnrollmentStartRequest as the schema parses it: what the services take. */
export type SvcTotpEnrollmentStartInput = z.output<typeof svcTotpEnrollmentStartRequestSchema>;

/** POST /mfa/challenge/totp/enroll/start: the MFA token of a forced enrollment plus the label. */
export const svcChallengeTotpEnrollmentStartRequestSchema = svcTotpEnrollmentStartRequestSchema.extend({
  mfaToken: opaqueTokenSchema,
  clientSecret: clientSecretField,
});
export type SvcChallengeTotpEnrollmentStartRequest = z.input<
  typeof svcChallengeTotpEnrollmentStartRequestSchema
>;
/** SvcChallengeTotpEnrollmentStartRequest as the schema parses it: what the services take. */
export type SvcChallengeTotpEnrollmentStartInput = z.output<
  typeof svcChallengeTotpEnrollmentStartRequestSchema
>;

/**
 * SvcTotpEnrollmentVerifyRequest {enrollmentToken, code, mfaToken}: mfaToken is required for
 * challenge-bound enrollment and omitted only for account self-enrollment; `clientSecret` authenticates
 * the confidential client of a challenge-bound enrollment.
 */
export const svcTotpEnrollmentVerifyRequestSchema = z.object({
  enrollmentToken: opaqueTokenSchema,
  code: mfaCodeSchema,
  mfaToken: opaqueTokenSchema.nullish().transform((value) => value ?? null),
  clientSecret: clientSecretField,
});
export type SvcTotpEnrollmentVerifyRequest = z.input<typeof svcTotpEnrollmentVerifyRequestSchema>;
/** SvcTotpEnrollmentVerifyRequest as the schema parses it: what the services take. */
export type SvcTotpEnrollmentVerifyInput = z.output<typeof svcTotpEnrollmentVerifyRequestSchema>;

const timestamp = z.iso.datetime();

/** TOTP enrollment start result {secret, provisioningUri, qrCodeDataUrl, enrollmentToken, expiresAt}. */
export const svcTotpEnrollmentStartResultSchema = z.object({
  secret: z.string(),
  provisioningUri: z.string(),
  qrCodeDataUrl: z.string(),
  enrollmentToken: z.string(),
  expiresAt: timestamp,
});
export type SvcTotpEnrollmentStartResult = z.output<typeof svcTotpEnrollmentStartResultSchema>;

/**
 * TOTP enrollment verify result: the authenticator, the one-time recovery codes (shown once; empty when
 * the user already had codes or recovery codes are off) and, for challenge-bound enrollment, the tokens
 * that complete the login.
 */
export const svcTotpEnrollmentVerifyResultSchema = z.object({
  authenticatorId: z.string(),
  recoveryCodes: z.array(z.string()),
  tokens: svcTokenResponseSchema.nullable(),
});
export type SvcTotpEnrollmentVerifyResult = z.output<typeof svcTotpEnrollmentVerifyResultSchema>;

/** MFA challenge verify result: the tokens, and how many recovery codes remain when one was used. */
export const svcMfaChallengeVerifyResultSchema = z.object({
  tokens: svcTokenResponseSchema,
  method: z.enum(MFA_FACTORS),
  remainingRecoveryCodes: z.number().int().nullable(),
});
export type SvcMfaChallengeVerifyResult = z.output<typeof svcMfaChallengeVerifyResultSchema>;

/** GetMfaStatusAsync: whether the user has a confirmed factor and what the settings allow. */
export const svcMfaStatusSchema = z.object({
  enabled: z.boolean(),
  totpEnrolled: z.boolean(),
  recoveryCodesRemaining: z.number().int(),
  userSelfEnrollmentEnabled: z.boolean(),
});
export type SvcMfaStatus = z.output<typeof svcMfaStatusSchema>;

/** ListMfaAuthenticatorsAsync entries (never the secret). */
export const svcMfaAuthenticatorSchema = z.object({
  id: z.string(),
  type: z.literal('totp'),
  label: z.string(),
  createdAt: timestamp,
  confirmedAt: timestamp,
});
export type SvcMfaAuthenticator = z.output<typeof svcMfaAuthenticatorSchema>;
