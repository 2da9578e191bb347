import { z } from 'zod';

/** Where the headless API is mounted unless a host chooses another dashboard base (SPEC.md "Headless API"). */
export const DEFAULT_HEADLESS_BASE_PATH = '/svc/auth/headless';

/**
 * The 28 headless views, in the order of SPEC.md "Headless views (complete list)". The view SPEC.md calls
 * "the service" is named `svc` (DECISIONS.md). The contract check compares this list with the headless
 * package's own copy, which stays dependency-free.
 */
export const HEADLESS_VIEWS = [
  'login',
  'password',
  'signup',
  'forgot-password',
  'forgot-password-sent',
  'password-reset',
  'email-otp',
  'email-otp-verify',
  'email-otp-signup-verify',
  'magic-link',
  'magic-link-sent',
  'phone-otp',
  'phone-otp-verify',
  'phone-otp-signup',
  'phone-otp-signup-verify',
  'svc',
  'invite-login',
  'invite-email-otp-verify',
  'invite-accepted',
  'device',
  'device-approve',
  'device-approved',
  'device-denied',
  'mfa',
  'mfa-enroll',
  'organization',
  'consent',
  'logged-out',
] as const;

export const headlessViewSchema = z.enum(HEADLESS_VIEWS);
export type HeadlessView = z.output<typeof headlessViewSchema>;

/** RFC 7636: an S256 challenge is the unpadded base64url of a SHA-256 digest, always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Body of `POST {base}/start` (SPEC.md "/start body fields"). Field names are accepted case-insensitively
 * by the server's body parser; unknown fields are ignored.
 */
export const headlessStartBodySchema = z.object({
  responseType: z.literal('code', { error: "responseType must be 'code'" }),
  clientId: z.string().min(1).max(256),
  redirectUri: z.string().min(1).max(2048),
  state: z.string().max(2048).optional(),
  scope: z.string().max(2048).optional(),
  codeChallenge: z
    .string()
    .regex(S256_CHALLENGE, { error: 'codeChallenge must be the 43-character base64url S256 challenge' }),
  codeChallengeMethod: z.literal('S256', { error: "codeChallengeMethod must be 'S256'" }),
  resource: z.string().min(1).max(2048).optional(),
  loginHint: z.string().max(320).optional(),
  view: headlessViewSchema.optional(),
  uiContext: z.record(z.string(), z.unknown()).optional(),
  prompt: z.string().max(256).optional(),
  nonce: z.string().max(512).optional(),
  maxAge: z.number().int().nonnegative().optional(),
  invitationToken: z.string().min(1).max(512).optional(),
});
export type SvcHeadlessStartBody = z.output<typeof headlessStartBodySchema>;

/** A sign-in provider offered by a view (social, OIDC or SAML); later issues add fields. */
export const headlessProviderSchema = z.looseObject({
  id: z.string(),
  displayName: z.string(),
  type: z.string(),
});
export type SvcHeadlessProvider = z.output<typeof headlessProviderSchema>;

/** The organizations to choose from after a sign-in that needs organization selection. */
export const headlessOrganizationSelectionSchema = z.looseObject({
  pendingToken: z.string(),
  organizations: z.array(z.looseObject({ id: z.string(), name: z.string() })),
});
export type SvcHeadlessOrganizationSelection = z.output<typeof headlessOrganizationSelectionSchema>;

/** What a view needs to render; SPEC.md allows "further fields", so the object is loose. */
export const headlessViewModelSchema = z.looseObject({
  view: headlessViewSchema,
  requestId: z.string(),
  settings: z.looseObject({ enabledCredentialTypes: z.array(z.string()) }),
  providers: z.array(headlessProviderSchema),
  organizationSelection: headlessOrganizationSelectionSchema.nullable(),
});
export type SvcHeadlessViewModel = z.output<typeof headlessViewModelSchema>;

/**
 * The authorization data of a redirect that carries a code (SPEC.md "Action result"): what the client
 * exchanges at /token. `codeVerifier` is never sent by the server (the client kept it since /start); the
 * headless client package fills it in.
 */
export const headlessAuthorizationSchema = z.object({
  code: z.string(),
  redirectUri: z.string(),
  state: z.string().nullable(),
  codeVerifier: z.string().optional(),
});
export type SvcHeadlessAuthorization = z.output<typeof headlessAuthorizationSchema>;

/**
 * SvcHeadlessActionResult (SPEC.md): `view` with a view model, or `redirect` with the registered client
 * redirect URL once an action completes the request (`authorization` when the redirect carries a code;
 * an error redirect such as access_denied has none).
 */
export const headlessActionResultSchema = z.object({
  type: z.enum(['view', 'redirect']),
  redirectUrl: z.string().nullable(),
  viewModel: headlessViewModelSchema.nullable(),
  authorization: headlessAuthorizationSchema.nullable().optional(),
});
export type SvcHeadlessActionResult = z.output<typeof headlessActionResultSchema>;

/** Body of every headless action that names only its request (GET-like posts such as TOTP enrollment start). */
export const headlessRequestBodySchema = z.object({ requestId: z.string().min(1).max(200) });

/** Body of `POST {base}/identify`. */
export const headlessIdentifyBodySchema = headlessRequestBodySchema.extend({ email: z.string().max(320) });

/** Body of `POST {base}/password/login`. */
export const headlessPasswordLoginBodySchema = headlessRequestBodySchema.extend({
  password: z.string().max(1024),
});

/**
 * Body of `POST {base}/organization/select`; `pendingToken` is the view model's, or left out for the
 * server to use a fresh one of this request.
 */
export const headlessOrganizationSelectBodySchema = headlessRequestBodySchema.extend({
  organizationId: z.string().min(1).max(200),
  pendingToken: z.string().min(1).max(512).optional(),
});

/** Body of `POST {base}/mfa/verify` and `/mfa/totp/enroll/verify`. */
export const headlessMfaCodeBodySchema = headlessRequestBodySchema.extend({ code: z.string().max(64) });

/** Body of `POST {base}/consent/approve` and `/consent/deny`: the consent view model's `consentToken`. */
export const headlessConsentBodySchema = headlessRequestBodySchema.extend({
  consentToken: z.string().min(1).max(512),
});
