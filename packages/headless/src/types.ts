/**
 * Wire types of the headless API. They are written out here rather than imported from @svc/contract so
 * that this package stays dependency-free at runtime and in its published types; `contract.test.ts`
 * checks that they agree with the server's contract.
 */

/** Where the server mounts the headless API unless its host chose another dashboard base. */
export const DEFAULT_HEADLESS_BASE_PATH = '/svc/auth/headless';

/** Every view a headless action can answer with (docs/reference/sign-in.md "Headless API"). */
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

export type HeadlessView = (typeof HEADLESS_VIEWS)[number];

/** Body of `POST /start`: an OAuth authorization request with PKCE (S256 only); undefined fields are left out. */
export interface SvcHeadlessStartRequest {
  responseType: 'code';
  clientId: string;
  redirectUri: string;
  state?: string | undefined;
  scope?: string | undefined;
  /** From `createPkcePair()`; keep the verifier for the code exchange at /token. */
  codeChallenge: string;
  codeChallengeMethod: 'S256';
  /** RFC 8707 resource indicator. */
  resource?: string | undefined;
  loginHint?: string | undefined;
  /** The first view to show instead of the default `svc` view. */
  view?: HeadlessView | undefined;
  /** Opaque to the server; returned to an app-owned UI as `ui_context`. */
  uiContext?: Record<string, unknown> | undefined;
  prompt?: string | undefined;
  nonce?: string | undefined;
  /** Seconds; a positive value is enforced at code issuance. */
  maxAge?: number | undefined;
  invitationToken?: string | undefined;
}

/** A provider button of a view (social, OIDC or SAML). */
export interface SvcHeadlessProvider {
  id: string;
  displayName: string;
  type: string;
  [field: string]: unknown;
}

/** The organizations to choose from, with the token that the selection action carries. */
export interface SvcHeadlessOrganizationSelection {
  pendingToken: string;
  organizations: { id: string; name: string; [field: string]: unknown }[];
  [field: string]: unknown;
}

/** What a view needs to render; later versions add fields per view. */
export interface SvcHeadlessViewModel {
  view: HeadlessView;
  requestId: string;
  settings: { enabledCredentialTypes: string[]; [field: string]: unknown };
  providers: SvcHeadlessProvider[];
  organizationSelection: SvcHeadlessOrganizationSelection | null;
  /**
   * When a new code or link may be asked for (ISO 8601): on the views that wait for one (null when not
   * known), on `forgot-password-sent`, and on the view of a refused send (429 `resend_too_soon`).
   */
  resendAvailableAt?: string | null | undefined;
  /**
   * On `consent` and `device-approve`: each requested scope with its display name and description (an
   * operator's or the host's entry, else the built-in words of a standard scope; a null `displayName`
   * means show the raw scope).
   */
  scopeDetails?: SvcHeadlessScopeDetail[] | undefined;
  [field: string]: unknown;
}

/** A scope as a consent screen shows it. */
export interface SvcHeadlessScopeDetail {
  scope: string;
  displayName: string | null;
  description: string | null;
  [field: string]: unknown;
}

/**
 * The `mfa-enroll` view model while an authenticator is being set up (narrow a view model to it by its
 * `view` and `secret`). After the first code the same view carries `recoveryCodes` instead.
 */
export interface SvcHeadlessMfaEnrollViewModel extends SvcHeadlessViewModel {
  view: 'mfa-enroll';
  /** Base32, for typing into an app that cannot scan. */
  secret: string;
  /** The `otpauth://` URI: render your own QR code, or link it on a phone. */
  provisioningUri: string;
  /** The provisioning URI as a PNG data URL. */
  qrCodeDataUrl: string;
  /** ISO 8601: when the pending authenticator lapses (start enrollment again after it). */
  expiresAt: string;
}

/**
 * What a redirect with a code carries for the exchange at /token. The server never sends
 * `codeVerifier`: the client fills it in when it made (or was given) the verifier of the request.
 */
export interface SvcHeadlessAuthorization {
  code: string;
  redirectUri: string;
  state: string | null;
  codeVerifier?: string | undefined;
}

/** The answer of every headless action: another view, or the redirect back to the client. */
export interface SvcHeadlessActionResult {
  type: 'view' | 'redirect';
  redirectUrl: string | null;
  /** A view to render; null on a redirect (except the recovery codes shown as the request completes). */
  viewModel: SvcHeadlessViewModel | null;
  /** On a redirect with a code; null on an error redirect such as access_denied. */
  authorization?: SvcHeadlessAuthorization | null | undefined;
}
