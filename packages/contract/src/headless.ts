import { z } from 'zod';
import { opaqueTokenSchema } from './auth.js';
import { svcTotpEnrollmentStartResultSchema } from './mfa.js';
import { svcScopeDetailSchema } from './scope-display-names.js';

/** Where the headless API is mounted unless a host chooses another dashboard base (docs/reference/sign-in.md "Headless API"). */
export const DEFAULT_HEADLESS_BASE_PATH = '/svc/auth/headless';

/**
 * The 28 headless views, in the order of docs/reference/sign-in.md "Headless API". The view docs/reference/sign-in.md "Headless API" calls
 * "the service" is named `svc` (docs/reference/sign-in.md "Headless API"). The contract check compares this list with the headless
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
 * Body of `POST {base}/start` (docs/reference/sign-in.md "Headless API"). Field names are accepted case-insensitively
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
  invitationToken: opaqueTokenSchema.optional(),
});
export type SvcHeadlessStartBody = z.output<typeof headlessStartBodySchema>;

/**
 * A sign-in provider offered by a view: `id` is what /provider/start takes, `type` the provider type
 * (`Google`, `Microsoft`, `Apple`, `GitHub`, `Custom`), `logoDataUrl` the button's image (or null).
 */
export const headlessProviderSchema = z.looseObject({
  id: z.string(),
  displayName: z.string(),
  type: z.string(),
  logoDataUrl: z.string().nullable().optional(),
});
export type SvcHeadlessProvider = z.output<typeof headlessProviderSchema>;

/** The organizations to choose from after a sign-in that needs organization selection. */
export const headlessOrganizationSelectionSchema = z.looseObject({
  pendingToken: z.string(),
  organizations: z.array(z.looseObject({ id: z.string(), name: z.string() })),
});
export type SvcHeadlessOrganizationSelection = z.output<typeof headlessOrganizationSelectionSchema>;

/** What a view needs to render; docs/reference/sign-in.md "Headless API" allows "further fields", so the object is loose. */
export const headlessViewModelSchema = z.looseObject({
  view: headlessViewSchema,
  requestId: z.string(),
  settings: z.looseObject({ enabledCredentialTypes: z.array(z.string()) }),
  providers: z.array(headlessProviderSchema),
  organizationSelection: headlessOrganizationSelectionSchema.nullable(),
  /**
   * When a new code or link may be asked for (ISO 8601): on the views that wait for one
   * (`email-otp-verify`, `email-otp-signup-verify`, `phone-otp-verify`, `phone-otp-signup-verify`,
   * `magic-link-sent`; null when not known), on `forgot-password-sent`, and on the view of a send the
   * server refused (429 `resend_too_soon`).
   */
  resendAvailableAt: z.string().nullable().optional(),
  /**
   * On `consent` and `device-approve`: the client described itself (registered at RFC 7591's endpoint,
   * or by a Client ID Metadata Document) rather than being created by an operator, so its name is its
   * own claim; `returnsTo` is the host approving sends the user to (null for a device), `documentHost`
   * the host serving its metadata document (null for a registered client). Null for an operator's
   * client. A UI should say so, as the hosted pages do.
   */
  selfRegistered: z
    .looseObject({ returnsTo: z.string().nullable(), documentHost: z.string().nullable() })
    .nullable()
    .optional(),
  /**
   * On `consent` and `device-approve`: each of `scopes` with its display name and description (an
   * operator's or the host's entry, else the built-in words of a standard scope, else null: show the
   * raw scope).
   */
  scopeDetails: z.array(svcScopeDetailSchema).optional(),
});
export type SvcHeadlessViewModel = z.output<typeof headlessViewModelSchema>;

/**
 * The `mfa-enroll` view model while an authenticator is being set up: what TOTP enrollment start returns
 * (docs/reference/sign-in.md "Headless API": secret, provisioningUri, qrCodeDataUrl, expiresAt) except the enrollment token, which the
 * request itself stands for. After the first code the same view carries `recoveryCodes` instead.
 */
export const headlessMfaEnrollViewModelSchema = headlessViewModelSchema.extend({
  view: z.literal('mfa-enroll'),
  ...svcTotpEnrollmentStartResultSchema.omit({ enrollmentToken: true }).shape,
});
export type SvcHeadlessMfaEnrollViewModel = z.output<typeof headlessMfaEnrollViewModelSchema>;

/**
 * The authorization data of a redirect that carries a code (docs/reference/sign-in.md "Headless API"): what the client
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
 * SvcHeadlessActionResult (docs/reference/sign-in.md "Headless API"): `view` with a view model, or `redirect` with the registered client
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

/** The `requestId` every action after /start carries. */
const requestId = z.string().min(1).max(200);
/** A typed one-time code (email, text message, authenticator app or recovery code). */
const code = z.string().max(64);
/**
 * An opaque token of a view model or an emailed link: printable ASCII like every token Svc issues, so a
 * control character is a 400 naming the field rather than a lookup that cannot match.
 */
const token = opaqueTokenSchema;
const email = z.string().max(320);
const phoneNumber = z.string().max(32);
const password = z.string().max(1024);
const displayName = z.string().max(200);
const organizationName = z.string().max(200).optional();

/** Body of every headless action that names only its request (GET-like posts such as TOTP enrollment start). */
export const headlessRequestBodySchema = z.object({ requestId });

/**
 * The path of `GET {base}/requests/{requestId}`: the body's rule, so that an id that names no live
 * request of this browser is the one answer of every such request (`auth_request_expired`).
 */
export const headlessRequestPathSchema = z.object({ requestId });

/** Body of `POST {base}/identify`. */
export const headlessIdentifyBodySchema = headlessRequestBodySchema.extend({ email });

/** Body of `POST {base}/password/login`. */
export const headlessPasswordLoginBodySchema = headlessRequestBodySchema.extend({ password });

/** Body of `POST {base}/password/forgot`: the answer is the same for every address. */
export const headlessPasswordForgotBodySchema = headlessRequestBodySchema.extend({ email });

/** Body of `POST {base}/password/reset`: the emailed reset token and the new password. */
export const headlessPasswordResetBodySchema = headlessRequestBodySchema.extend({
  token,
  newPassword: password,
});

/** Body of `POST {base}/email-otp/start` and `/magic-link/start`. */
export const headlessEmailBodySchema = headlessRequestBodySchema.extend({ email });

/** Body of every `…/verify` action that checks a typed code (email, text message, MFA). */
export const headlessCodeBodySchema = headlessRequestBodySchema.extend({ code });

/** Body of `POST {base}/phone-otp/start`: a number in E.164 (`+4915112345678`). */
export const headlessPhoneBodySchema = headlessRequestBodySchema.extend({ phoneNumber });

/** Body of `POST {base}/signup`: SvcSignupRequest's fields (a new organization when named). */
export const headlessSignupBodySchema = headlessRequestBodySchema.extend({
  displayName,
  email,
  password,
  organizationName,
});

/** Body of `POST {base}/signup/email-otp/start`: the account to create once the emailed code is typed. */
export const headlessEmailSignupBodySchema = headlessRequestBodySchema.extend({
  displayName,
  email,
  organizationName,
});

/** Body of `POST {base}/signup/phone-otp/start`: the account to create once the texted code is typed. */
export const headlessPhoneSignupBodySchema = headlessRequestBodySchema.extend({
  displayName,
  phoneNumber,
  organizationName,
});

/** Body of `POST {base}/invitations/resolve` and `/invitations/accept` (signed in as the invitee). */
export const headlessInvitationBodySchema = headlessRequestBodySchema.extend({ invitationToken: token });

/** Body of `POST {base}/invitations/signup`: the invited address's new (passwordless) account. */
export const headlessInvitationSignupBodySchema = headlessInvitationBodySchema.extend({ displayName });

/** Body of `POST {base}/invitations/login`: the invited account's password. */
export const headlessInvitationLoginBodySchema = headlessInvitationBodySchema.extend({ password });

/** Body of `POST {base}/invitations/email-otp/verify`: the code emailed to the invited address. */
export const headlessInvitationCodeBodySchema = headlessInvitationBodySchema.extend({ code });

/**
 * Body of `POST {base}/organization/select`; `pendingToken` is the view model's, or left out for the
 * server to use a fresh one of this request.
 */
export const headlessOrganizationSelectBodySchema = headlessRequestBodySchema.extend({
  organizationId: z.string().min(1).max(200),
  pendingToken: token.optional(),
});

/** Body of `POST {base}/consent/approve` and `/consent/deny`: the consent view model's `consentToken`. */
export const headlessConsentBodySchema = headlessRequestBodySchema.extend({ consentToken: token });

const providerId = z.string().min(1).max(200);

/**
 * Body of `POST {base}/provider/start`: a provider of the view model's `providers`, by its `id` as
 * `providerId` (the SDK) or `connectionId` (docs/reference/sign-in.md "Headless API").
 */
export const headlessProviderStartBodySchema = headlessRequestBodySchema
  .extend({ providerId: providerId.optional(), connectionId: providerId.optional() })
  .refine((body) => body.providerId !== undefined || body.connectionId !== undefined, {
    message: "Name the provider: providerId (or connectionId), one of the view model's providers.",
    path: ['providerId'],
  });

/** Body of `POST {base}/magic-link/complete`: the emailed link's token, in the browser that asked for it. */
export const headlessMagicLinkCompleteBodySchema = headlessRequestBodySchema.extend({ token });

/**
 * Body of `POST {base}/device/resolve` (docs/reference/sign-in.md "Headless API"): the code the device shows. Resolving opens the
 * device request, so `requestId` is optional here (a UI that shows the `device` view has none yet).
 */
export const headlessDeviceResolveBodySchema = z.object({
  requestId: requestId.optional(),
  userCode: z.string().max(64),
});

/** Body of `POST {base}/device/approve` and `/device/deny`: the request and the code the user compared. */
export const headlessDeviceDecisionBodySchema = headlessRequestBodySchema.extend({
  userCode: z.string().max(64),
});

/**
 * Every headless action route (path below the base) with its body schema: the one source of the request
 * fields that the server validates and the client package's contract check compares. `/start` and GET
 * `/requests/{requestId}` are not actions; `/submit` posts any of these by name.
 */
export const HEADLESS_ACTIONS = {
  identify: headlessIdentifyBodySchema,
  'password/login': headlessPasswordLoginBodySchema,
  'password/forgot': headlessPasswordForgotBodySchema,
  'password/reset': headlessPasswordResetBodySchema,
  'email-otp/start': headlessEmailBodySchema,
  'email-otp/verify': headlessCodeBodySchema,
  'magic-link/start': headlessEmailBodySchema,
  'magic-link/complete': headlessMagicLinkCompleteBodySchema,
  'phone-otp/start': headlessPhoneBodySchema,
  'phone-otp/verify': headlessCodeBodySchema,
  signup: headlessSignupBodySchema,
  'signup/email-otp/start': headlessEmailSignupBodySchema,
  'signup/email-otp/verify': headlessCodeBodySchema,
  'signup/phone-otp/start': headlessPhoneSignupBodySchema,
  'signup/phone-otp/verify': headlessCodeBodySchema,
  'invitations/resolve': headlessInvitationBodySchema,
  'invitations/signup': headlessInvitationSignupBodySchema,
  'invitations/login': headlessInvitationLoginBodySchema,
  'invitations/accept': headlessInvitationBodySchema,
  'invitations/email-otp/start': headlessInvitationBodySchema,
  'invitations/email-otp/verify': headlessInvitationCodeBodySchema,
  'organization/select': headlessOrganizationSelectBodySchema,
  'mfa/verify': headlessCodeBodySchema,
  'mfa/totp/enroll/start': headlessRequestBodySchema,
  'mfa/totp/enroll/verify': headlessCodeBodySchema,
  'consent/approve': headlessConsentBodySchema,
  'consent/deny': headlessConsentBodySchema,
  'provider/start': headlessProviderStartBodySchema,
  'device/resolve': headlessDeviceResolveBodySchema,
  'device/approve': headlessDeviceDecisionBodySchema,
  'device/deny': headlessDeviceDecisionBodySchema,
  logout: headlessRequestBodySchema,
} as const satisfies Record<string, z.ZodObject>;
export type HeadlessAction = keyof typeof HEADLESS_ACTIONS;
/** The body of each action as the server reads it. */
export type HeadlessActionBodies = { [A in HeadlessAction]: z.input<(typeof HEADLESS_ACTIONS)[A]> };

/** Body of `POST {base}/submit`: any action by its route, with that action's own fields beside it. */
export const headlessSubmitBodySchema = z.looseObject({
  action: z.enum(Object.keys(HEADLESS_ACTIONS) as [HeadlessAction, ...HeadlessAction[]], {
    error: 'action must name a headless route such as "password/login"',
  }),
});
