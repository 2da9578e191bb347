import type { SvcOrganizationOption } from '@svc/contract';
import type { SignedOutInvitationPage } from '../../invitations/invitation-acceptance.js';
import { retryAfterSeconds, SvcTooManyAttemptsError, type RefusedAttempt } from '../../kernel/errors.js';
import { refusedSendMessage, type RefusedSend } from '../../ratelimit/refused-send.js';
import type { OAuthErrorCode } from '../../oauth/errors.js';
import type { AuthorizeView } from '../../oauth/authorize/authorize-params.js';
import type { AuthRequestChallenge, CodeChallengeKind } from './repository.js';

/**
 * What the authorization flow hands its HTTP adapter. Plain values: the hosted routes map them onto
 * redirects and pages, a headless adapter could map them onto its JSON views.
 */

/** The browser a step comes from. */
export interface BrowserContext {
  /**
   * A stable random id of this browser (the hosted antiforgery cookie's id). A request is bound to the
   * browser that started it; every later step must present the same id.
   */
  readonly browserId: string | undefined;
  /** The issuer session cookie's value, when the browser has one. */
  readonly sessionToken?: string | undefined;
  /** For the audit trail. */
  readonly ipAddress?: string | undefined;
}

/** An issuer session the adapter must put into the session cookie. */
export interface StartedSession {
  readonly token: string;
  readonly expiresAt: number;
}

/** What every interactive step shows about its request. */
export interface StepRequest {
  readonly requestId: string;
  readonly clientName: string;
}

/** The page a request needs next (GET /login renders it). */
export type AuthorizeStep =
  | { readonly kind: 'identify'; readonly request: StepRequest; readonly email: string | null }
  | { readonly kind: 'password'; readonly request: StepRequest; readonly email: string }
  /**
   * A request bound to an invitation: the invited address signs in (its password, or an emailed code
   * when it has none) or signs up (`invitation.kind`).
   */
  | {
      readonly kind: 'invitation';
      readonly request: StepRequest;
      readonly invitation: SignedOutInvitationPage;
    }
  | {
      readonly kind: 'select_organization';
      readonly request: StepRequest;
      /** The engine's single-use token for this choice; goes into the form, never into a URL. */
      readonly pendingAuthToken: string;
      readonly organizations: readonly SvcOrganizationOption[];
    }
  /** The request waits for a code sent by email or text message (`challenge` says which form). */
  | {
      readonly kind: 'enter_code';
      readonly request: StepRequest;
      readonly challenge: CodeChallengeKind;
      /** The masked address or number the code went to. */
      readonly target: string;
      /** Epoch ms: when a new code may be asked for (the challenge's; absent when not known). */
      readonly resendAvailableAt?: number;
    }
  /** The request waits for the emailed sign-in link to be opened in this browser. */
  | {
      readonly kind: 'magic_link_sent';
      readonly request: StepRequest;
      readonly target: string;
      /** Epoch ms: when a new link may be asked for (absent when not known). */
      readonly resendAvailableAt?: number;
    }
  /** Email sign-in: the address to send a code or a link to (prefilled, or what was typed before an error). */
  | { readonly kind: 'email_sign_in'; readonly request: StepRequest; readonly email: string | null }
  /** Phone sign-in: the number to text a code to (what was typed comes back with an error). */
  | { readonly kind: 'phone_number'; readonly request: StepRequest; readonly phoneNumber: string | null }
  /** Signup with email and password (the typed values come back with an error, never the password). */
  | { readonly kind: 'signup'; readonly request: StepRequest; readonly values: SignupFormValues }
  /** Signup with a phone number: name, number and organization; the texted code follows. */
  | { readonly kind: 'phone_signup'; readonly request: StepRequest; readonly values: PhoneSignupFormValues }
  /** The second factor: a code of the authenticator app, or a recovery code when offered. */
  | { readonly kind: 'mfa_verify'; readonly request: StepRequest; readonly recoveryCodeOffered: boolean }
  /** Forced enrollment: scan the QR code (or type the secret), then confirm with a code. */
  | {
      readonly kind: 'mfa_enroll';
      readonly request: StepRequest;
      readonly secret: string;
      /** The `otpauth://` URI the QR code encodes, for a UI that renders its own or opens an app. */
      readonly provisioningUri: string;
      readonly qrCodeDataUrl: string;
      /** ISO 8601: when the pending authenticator lapses. */
      readonly expiresAt: string;
    }
  /** After enrollment: the recovery codes, shown once, and where to continue. */
  | {
      readonly kind: 'recovery_codes';
      readonly request: StepRequest;
      readonly codes: readonly string[];
      /** The client's redirect (with the code), or null: the request's current step (consent). */
      readonly continueTo: string | null;
    }
  | {
      readonly kind: 'consent';
      readonly request: StepRequest;
      readonly scopes: readonly string[];
      readonly userEmail: string | null;
      readonly organizationName: string | null;
    }
  /** A signed-in device request: approve or deny the device (RFC 8628 §3.3). */
  | {
      readonly kind: 'device_approval';
      readonly request: StepRequest;
      /** The device's code, `XXXX-XXXX`, for the user to compare with the device's screen. */
      readonly userCode: string;
      readonly scopes: readonly string[];
      readonly userEmail: string | null;
      readonly organizationName: string | null;
    };

/** What the signup form shows again after an error (never the password). */
export interface SignupFormValues {
  readonly displayName: string;
  readonly email: string;
  readonly organizationName: string;
}

/** What the phone signup form shows again after an error. */
export interface PhoneSignupFormValues {
  readonly displayName: string;
  readonly phoneNumber: string;
  readonly organizationName: string;
}

/** The outcome of GET /authorize. */
export type AuthorizeStartOutcome =
  /** The client or redirect URI cannot be trusted: the hosted error page, nothing sent anywhere. */
  | { readonly kind: 'error_page'; readonly error: OAuthErrorCode; readonly description: string }
  /** To the client: a code, or an error after the client and redirect URI were validated. */
  | { readonly kind: 'redirect'; readonly location: string }
  /**
   * The user must act: the browser goes to the request's current step, or, for a request that waits
   * for a sign-in, to the first page its `view` asked for (null: the identify step).
   */
  | { readonly kind: 'interact'; readonly requestId: string; readonly view: AuthorizeView | null };

/** The outcome of a GET of the current step: a page, or (the step resolved itself) a redirect. */
export type AuthorizeStepOutcome =
  | { readonly kind: 'step'; readonly step: AuthorizeStep }
  | { readonly kind: 'redirect'; readonly location: string };

/**
 * Why a form comes back with an inline error; the adapter words it (hosted: HOSTED_MESSAGES). A wrong
 * password and an unknown email are the same `invalid_credentials`.
 */
export type StepError =
  | 'email_required'
  | 'email_invalid'
  | 'password_required'
  | 'invalid_credentials'
  | 'too_many_attempts'
  | 'mfa_code_invalid'
  | 'organization_required'
  // Phone sign-in and signup (hosted/login/phone-otp-routes.ts, hosted/signup/).
  | 'phone_required'
  | 'phone_invalid'
  | 'sms_unavailable'
  | 'code_invalid'
  | 'display_name_required'
  | 'display_name_invalid'
  | 'organization_name_invalid'
  | 'password_too_short'
  | 'password_too_long'
  | 'email_taken'
  // A request bound to an invitation was signed in to another account than the invited address's.
  | 'invitation_other_account'
  // A code or link asked for too soon (the retry carries `refusedSend`: when to ask again).
  | 'resend_too_soon';

/** The outcome of a hosted form post. */
export type AuthorizeActionOutcome =
  /** To the client (code or error). `session`: a new issuer session for the cookie. */
  | { readonly kind: 'redirect'; readonly location: string; readonly session?: StartedSession }
  /** To the request's current step (GET /login), post/redirect/get. */
  | { readonly kind: 'next'; readonly requestId: string; readonly session?: StartedSession }
  /**
   * The same step again with an inline error (the submission did nothing). `refused`: a refused attempt
   * (`too_many_attempts`, or a send asked for too soon, `resend_too_soon`), whose words say when to try
   * again; the adapters answer 429 with Retry-After.
   */
  | {
      readonly kind: 'retry';
      readonly step: AuthorizeStep;
      readonly error: StepError;
      readonly refused?: RefusedAttempt;
    }
  /** A page to show once (recovery codes after enrollment), with the issuer session the post started. */
  | { readonly kind: 'show'; readonly step: AuthorizeStep; readonly session?: StartedSession };

/**
 * The error of a code check that the failure throttle refused, as the same step with `too_many_attempts`
 * and the wait; any other error is rethrown.
 */
export function refusedRetry(error: unknown, step: AuthorizeStep): AuthorizeActionOutcome {
  if (!(error instanceof SvcTooManyAttemptsError)) throw error;
  return { kind: 'retry', step, error: 'too_many_attempts', refused: error };
}

/** A completion result as the outcome of a post, with the issuer session the post started (if any). */
export function toActionOutcome(
  result: { readonly kind: 'redirect'; readonly location: string } | { readonly kind: 'next' },
  requestId: string,
  session?: StartedSession,
): AuthorizeActionOutcome {
  const started = session === undefined ? {} : { session };
  return result.kind === 'redirect'
    ? { kind: 'redirect', location: result.location, ...started }
    : { kind: 'next', requestId, ...started };
}

/** The step of a request that waits for the code or link of `challenge`; undefined for other challenges. */
export function waitingStep(
  request: StepRequest,
  challenge: AuthRequestChallenge,
): AuthorizeStep | undefined {
  const resend =
    challenge.resendAvailableAt === undefined ? {} : { resendAvailableAt: challenge.resendAvailableAt };
  switch (challenge.kind) {
    case 'magic_link':
      return { kind: 'magic_link_sent', request, target: challenge.target, ...resend };
    case 'email_otp':
    case 'email_otp_signup':
    case 'phone_otp':
    case 'phone_otp_signup':
      return { kind: 'enter_code', request, challenge: challenge.kind, target: challenge.target, ...resend };
    default:
      return undefined;
  }
}

/**
 * A start whose send the rate limit refused: `step` again (the form, or the code or link the request
 * still waits for) with `resend_too_soon`; the adapters answer 429 and say when to ask again.
 */
export function refusedSendRetry(step: AuthorizeStep, refused: RefusedSend): AuthorizeActionOutcome {
  const shown =
    step.kind === 'enter_code' || step.kind === 'magic_link_sent'
      ? { ...step, resendAvailableAt: refused.nextAllowedSendAt }
      : step;
  return {
    kind: 'retry',
    step: shown,
    error: 'resend_too_soon',
    refused: {
      message: refusedSendMessage(refused.retryAfterMs),
      retryAfterSeconds: retryAfterSeconds(refused.retryAfterMs),
      resendAvailableAt: refused.nextAllowedSendAt,
    },
  };
}
