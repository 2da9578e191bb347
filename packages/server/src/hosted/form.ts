import { STEP_ERROR_MESSAGES } from '../signin/flow/step-error-messages.js';
import { DEVICE_VERIFY_MESSAGES } from '../signin/methods/device/device-steps.js';
import { ANTIFORGERY_FIELD } from '../http/antiforgery.js';
import { html, type SafeHtml } from '../http/pages/html.js';

/**
 * Form field names of the hosted posts (docs/reference/sign-in.md "Hosted pages": snake_case).
 * snake_case like the OAuth parameters the same pages carry along.
 */
export const HOSTED_FIELDS = Object.freeze({
  antiforgery: ANTIFORGERY_FIELD,
  requestId: 'request_id',
  email: 'email',
  password: 'password',
  organizationId: 'organization_id',
  /** The sign-in engine's single-use organization-selection token (a secret: form only, never a URL). */
  pendingToken: 'pending_token',
  /** The texted or emailed one-time code of the enter-code step. */
  code: 'code',
  phoneNumber: 'phone_number',
  displayName: 'display_name',
  organizationName: 'organization_name',
  /** The device's code typed at /device (RFC 8628 `user_code`, as in verification_uri_complete). */
  userCode: 'user_code',
});

/** What every hosted form needs: where to post and the two hidden fields. */
export interface HostedFormContext {
  /** The auth base path (for example `/svc/auth`): form actions and links are built under it. */
  readonly authBase: string;
  /** From `issueAntiforgeryToken()` on the GET that renders the form. */
  readonly antiforgeryToken: string;
  /** The authorization request the page belongs to. */
  readonly requestId: string;
  /** Further hidden fields a flow needs to carry (name → value); escaped like everything else. */
  readonly hidden?: Readonly<Record<string, string>>;
}

/** The hidden fields of a hosted form: the antiforgery token, the request id and any extras. */
export function hiddenFormFields(context: HostedFormContext): SafeHtml {
  const extras = Object.entries(context.hidden ?? {}).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
  return html`<input type="hidden" name="${HOSTED_FIELDS.antiforgery}" value="${context.antiforgeryToken}" />
    <input type="hidden" name="${HOSTED_FIELDS.requestId}" value="${context.requestId}" />${extras}`;
}

/** An inline error above a form, announced by screen readers; nothing when there is no error. */
export function formError(message: string | undefined): SafeHtml {
  return html`${message !== undefined && html`<p class="error" id="form-error" role="alert">${message}</p>`}`;
}

/** Attributes that tie an invalid field to the inline error. */
export function invalidAttributes(message: string | undefined): SafeHtml {
  return html`${message !== undefined && html` aria-invalid="true" aria-describedby="form-error"`}`;
}

/**
 * The sign-in page of a request: the identify step, where "Use a different account" leads. `step=identify`
 * asks for it explicitly, because GET /login without it shows the request's current step (the password
 * step once an email was identified), which would lead straight back to the same account.
 */
export function loginHref(authBase: string, requestId: string): string {
  return `${authBase}/login?${new URLSearchParams({ [HOSTED_FIELDS.requestId]: requestId, step: 'identify' }).toString()}`;
}

/** A hosted page of a request (`/login/email-otp`, `/signup` …) under the auth base, with its request id. */
export function requestPageHref(authBase: string, path: string, requestId: string): string {
  return `${authBase}${path}?${new URLSearchParams({ [HOSTED_FIELDS.requestId]: requestId }).toString()}`;
}

/** The current step of a request: where /authorize and every finished form post send the browser. */
export function currentStepHref(authBase: string, requestId: string): string {
  return requestPageHref(authBase, '/login', requestId);
}

/** Copy for inline errors that the sign-in routes show, in one place so that pages and tests agree. */
export const HOSTED_MESSAGES = Object.freeze({
  invalidCredentials: STEP_ERROR_MESSAGES.invalid_credentials,
  emailRequired: STEP_ERROR_MESSAGES.email_required,
  emailInvalid: STEP_ERROR_MESSAGES.email_invalid,
  passwordRequired: STEP_ERROR_MESSAGES.password_required,
  organizationRequired: STEP_ERROR_MESSAGES.organization_required,
  accountUnavailable: 'This account cannot sign in here. Contact your administrator.',
  mfaCodeInvalid: STEP_ERROR_MESSAGES.mfa_code_invalid,
  phoneRequired: STEP_ERROR_MESSAGES.phone_required,
  phoneInvalid: STEP_ERROR_MESSAGES.phone_invalid,
  smsUnavailable: STEP_ERROR_MESSAGES.sms_unavailable,
  codeInvalid: STEP_ERROR_MESSAGES.code_invalid,
  displayNameRequired: STEP_ERROR_MESSAGES.display_name_required,
  displayNameInvalid: STEP_ERROR_MESSAGES.display_name_invalid,
  organizationNameInvalid: STEP_ERROR_MESSAGES.organization_name_invalid,
  passwordTooShort: STEP_ERROR_MESSAGES.password_too_short,
  passwordTooLong: STEP_ERROR_MESSAGES.password_too_long,
  emailTaken: STEP_ERROR_MESSAGES.email_taken,
  deviceCodeRequired: DEVICE_VERIFY_MESSAGES.device_code_required,
  deviceCodeInvalid: DEVICE_VERIFY_MESSAGES.device_code_invalid,
  deviceCodeRateLimited: DEVICE_VERIFY_MESSAGES.device_code_rate_limited,
});
