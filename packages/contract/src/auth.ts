import { z } from 'zod';
import { emailSchema, svcOrganizationOptionSchema } from './admin.js';
import { newPasswordSchema, nullable, optionalText, recordIdSchema, text } from './fields.js';
import { svcScopeDetailSchema } from './scope-display-names.js';

/**
 * Direct JSON helper records (docs/reference/sign-in.md "Direct JSON helpers", "The login result"), camelCase on
 * the wire (docs/reference/errors.md "Shapes"). The in-process SvcAuthService validates its arguments with the
 * same schemas, so both kinds of caller meet the same rules. Objects are not strict: unknown keys are
 * ignored; a missing field or a wrong type is a 400 naming the field.
 */

/** An opaque token Svc issued (refresh, pending, MFA): printable ASCII, at most 512 characters. */
export const opaqueTokenSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[\x21-\x7e]+$/, { message: 'must be a token issued by Svc' });

/** An OAuth client_id: printable ASCII, at most 256 characters. */
export const clientIdSchema = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces' });

/**
 * The secret of a confidential client at the direct helpers (the `clientSecret` field; HTTP Basic is the
 * other way): RFC 6749 Appendix A's VSCHAR, printable ASCII including the space, at most 512 characters.
 * Public clients send none.
 */
export const clientSecretSchema = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[\x20-\x7e]+$/, { message: 'must be printable ASCII' });

/** Not trimmed: every character of a password counts. */
const passwordSchema = z.string().min(1).max(1024);

/**
 * The `clientSecret` field of every direct sign-in request: a confidential client's secret when it does
 * not use HTTP Basic; null when omitted.
 */
export const clientSecretField = nullable(clientSecretSchema);

// ---- Requests -------------------------------------------------------------------------------------

/**
 * SvcPasswordLoginRequest: `organizationId`, when set, skips organization selection; `clientSecret`
 * authenticates a confidential client (or HTTP Basic over HTTP).
 */
export const svcPasswordLoginRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  organizationId: nullable(recordIdSchema),
});
export type SvcPasswordLoginRequest = z.input<typeof svcPasswordLoginRequestSchema>;
export type SvcPasswordLoginInput = z.output<typeof svcPasswordLoginRequestSchema>;

/**
 * SvcSignupRequest. docs/reference/sign-in.md "Direct JSON helpers": OrganizationId must be null (a supplied value is rejected; self-service
 * signup never joins an existing organization). `organizationName`, when set, creates an organization
 * with the new user as its owner. The password follows the rule of the operator API (8-1024 characters).
 */
export const svcSignupRequestSchema = z.object({
  displayName: text(1, 200),
  email: emailSchema,
  password: newPasswordSchema,
  organizationName: optionalText(text(1, 200)),
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  organizationId: z
    .null({
      error:
        'must be null or omitted: self-service signup never joins an existing organization (use organizationName to create one)',
    })
    .optional()
    .transform(() => null),
});
export type SvcSignupRequest = z.input<typeof svcSignupRequestSchema>;
export type SvcSignupInput = z.output<typeof svcSignupRequestSchema>;

/**
 * RFC 8176 authentication method references a first-party client may say it used when it authenticated
 * the user itself (CompleteClientAuthenticationAsync). `mfa` and `mca` are left out: whether a second
 * factor is needed is Svc's MFA policy, and a factor Svc checks adds its own reference.
 */
export const CLIENT_AUTHENTICATION_METHODS = [
  'face',
  'fpt',
  'geo',
  'hwk',
  'iris',
  'kba',
  'otp',
  'pin',
  'pwd',
  'rba',
  'retina',
  'sc',
  'sms',
  'swk',
  'tel',
  'user',
  'vbm',
  'wia',
] as const;

/**
 * CompleteClientAuthenticationAsync: signs in a user whom the first-party client authenticated itself
 * (its own credential check), through the same engine as password login. The client vouches for
 * `userId` and names how it authenticated the user (`authenticationMethod`, the session's amr);
 * `organizationId`, when set, skips organization selection. In-process only.
 */
export const svcClientAuthenticationRequestSchema = z.object({
  userId: recordIdSchema,
  clientId: nullable(clientIdSchema),
  clientSecret: clientSecretField,
  authenticationMethod: z.enum(CLIENT_AUTHENTICATION_METHODS, {
    error: `must be an RFC 8176 method: ${CLIENT_AUTHENTICATION_METHODS.join(', ')}`,
  }),
  organizationId: nullable(recordIdSchema),
});
export type SvcClientAuthenticationRequest = z.input<typeof svcClientAuthenticationRequestSchema>;
export type SvcClientAuthenticationInput = z.output<typeof svcClientAuthenticationRequestSchema>;

/**
 * SvcSelectOrganizationRequest: the pending token of organization_selection and the chosen organization;
 * a confidential client authenticates again (the selection releases its tokens).
 */
export const svcSelectOrganizationRequestSchema = z.object({
  pendingAuthToken: opaqueTokenSchema,
  organizationId: recordIdSchema,
  clientSecret: clientSecretField,
});
export type SvcSelectOrganizationRequest = z.input<typeof svcSelectOrganizationRequestSchema>;

/** SvcRefreshRequest: `organizationId` switches the session's organization (an active membership). */
export const svcRefreshRequestSchema = z.object({
  refreshToken: opaqueTokenSchema,
  organizationId: nullable(recordIdSchema),
});
export type SvcRefreshRequest = z.input<typeof svcRefreshRequestSchema>;

/**
 * POST /logout body: `{ refreshToken? }`. Missing, unknown and malformed tokens alike are no-ops (docs/reference/sign-in.md "Direct JSON helpers":
 * "unknown or missing tokens are idempotent no-ops"): any value that cannot be a token Svc issued reads
 * as null instead of failing validation, so the route answers 204 whatever the token.
 */
export const svcLogoutRequestSchema = z.object({
  refreshToken: z
    .unknown()
    .optional()
    .transform((value): string | null => {
      const parsed = opaqueTokenSchema.safeParse(value);
      return parsed.success ? parsed.data : null;
    }),
});
export interface SvcLogoutRequest {
  readonly refreshToken?: string | null;
}

/**
 * In-process LogoutAsync: a refresh token or a session id, at least one (docs/reference/tokens-and-sessions.md "Logout").
 * The HTTP route never passes a caller-supplied sessionId.
 */
export const svcLogoutOperationSchema = z
  .object({
    refreshToken: nullable(opaqueTokenSchema),
    sessionId: nullable(recordIdSchema),
  })
  .refine((value) => value.refreshToken !== null || value.sessionId !== null, {
    message: 'pass a refreshToken or a sessionId',
  });
export type SvcLogoutOperation = z.input<typeof svcLogoutOperationSchema>;

/** POST /logout-all and POST /account/grants: `{ refreshToken }` proves the session. */
export const svcRefreshTokenProofSchema = z.object({
  refreshToken: opaqueTokenSchema,
});
export type SvcRefreshTokenProof = z.input<typeof svcRefreshTokenProofSchema>;

/** POST /account/grants/revoke. */
export const svcRevokeAccountGrantRequestSchema = z.object({
  refreshToken: opaqueTokenSchema,
  grantId: recordIdSchema,
});
export type SvcRevokeAccountGrantRequest = z.input<typeof svcRevokeAccountGrantRequestSchema>;

// ---- Results --------------------------------------------------------------------------------------

const timestamp = z.iso.datetime();

/** SvcTokenResponse (in-process and direct JSON). ID tokens are not part of it. */
export const svcTokenResponseSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  sessionId: z.string(),
  clientId: z.string(),
  organizationId: z.string().nullable(),
  accessTokenExpiresAt: timestamp,
  refreshTokenExpiresAt: timestamp,
});
export type SvcTokenResponse = z.output<typeof svcTokenResponseSchema>;

/**
 * SvcLoginResult, the login state machine record. Every key is always present: `tokens` only in the
 * complete state, `pendingAuthToken` and `organizations` only in organization_selection, the MFA fields
 * only in the mfa states (false / null otherwise).
 */
export const svcLoginResultSchema = z.object({
  requiresOrganizationSelection: z.boolean(),
  pendingAuthToken: z.string().nullable(),
  organizations: z.array(svcOrganizationOptionSchema),
  tokens: svcTokenResponseSchema.nullable(),
  requiresMfa: z.boolean(),
  mfaToken: z.string().nullable(),
  requiresMfaEnrollment: z.boolean(),
  mfaMethods: z.array(z.string()).nullable(),
});
export type SvcLoginResult = z.output<typeof svcLoginResultSchema>;

/**
 * A consent grant (docs/reference/tokens-and-sessions.md "Scopes"); `scopeDetails` are its `scopes` as
 * consent showed them, with their display names.
 */
export const svcConsentGrantSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  clientName: z.string(),
  scopes: z.array(z.string()),
  scopeDetails: z.array(svcScopeDetailSchema),
  grantedAt: timestamp,
  updatedAt: timestamp,
});
export type SvcConsentGrant = z.output<typeof svcConsentGrantSchema>;

/** The answer of a grant revocation. */
export const svcConsentGrantRevokeResultSchema = z.object({
  id: z.string(),
  revokedAt: timestamp,
});
export type SvcConsentGrantRevokeResult = z.output<typeof svcConsentGrantRevokeResultSchema>;

/**
 * SvcValidatedToken: the result of session-aware access-token validation. `principal` holds the verified
 * JWT claims (iss, sub, aud, exp, iat, jti, sid, client_id, scope, org_id…).
 */
export interface SvcValidatedToken {
  readonly principal: Readonly<Record<string, unknown>>;
  readonly sessionId: string;
  readonly userId: string | null;
  readonly organizationId: string | null;
  readonly clientId: string | null;
  readonly audience: string | null;
}

// ---- Operator paths -------------------------------------------------------------------------------

/** Path parameters of the operator's `GET /users/{userId}/grants`. */
export const svcUserGrantsPathSchema = z.object({
  userId: recordIdSchema,
});

/** Path parameters of the operator's `POST /users/{userId}/grants/{grantId}/revoke`. */
export const svcUserGrantPathSchema = z.object({
  userId: recordIdSchema,
  grantId: recordIdSchema,
});
