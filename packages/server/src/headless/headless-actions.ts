import type { HeadlessAction, HeadlessActionBodies } from '@svc/contract';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../account/password-reset.js';
import { toIso } from '../kernel/clock.js';
import { retryAfterSeconds, SvcPublicAuthError, SvcValidationError } from '../kernel/errors.js';
import {
  DEVICE,
  DEVICE_VERIFY_MESSAGES,
  type DeviceVerifyError,
} from '../signin/methods/device/device-steps.js';
import { emailStepError, STEP_ERROR_MESSAGES } from '../signin/flow/step-error-messages.js';
import { normalizeUserCode } from '../oauth/device/user-code.js';
import { SvcSendRefusedError } from '../ratelimit/refused-send.js';
import { type HeadlessCall, type HeadlessHandlers, need } from './headless-handler.js';
import { INVITATION_HANDLERS } from './headless-invitations.js';
import type { HeadlessAnswer, HeadlessBrowser, HeadlessSignIn } from './headless-sign-in.js';
import { EMAIL_OTP } from '../signin/methods/email-otp/method.js';
import { MAGIC_LINK } from '../signin/methods/magic-link/method.js';
import { PROVIDER } from '../signin/methods/oidc/method.js';
import { PHONE_OTP } from '../signin/methods/phone-otp/method.js';
import { EMAIL_SIGNUP, SIGNUP } from '../signin/methods/signup/method.js';

/** The wording of the errors these actions answer beside the flow's step errors. */
const MESSAGES = {
  email_required: STEP_ERROR_MESSAGES.email_required,
  email_invalid: STEP_ERROR_MESSAGES.email_invalid,
  email_not_ascii: STEP_ERROR_MESSAGES.email_not_ascii,
  invalid_token: 'This reset link is no longer valid. Ask for a new one.',
  password_too_short: STEP_ERROR_MESSAGES.password_too_short,
  password_too_long: STEP_ERROR_MESSAGES.password_too_long,
  // The hosted /device page's words, so both adapters say the same.
  ...DEVICE_VERIFY_MESSAGES,
  device_code_mismatch: 'That code is not the code of this request. Check the code on your device.',
} as const;

/**
 * Every headless action (docs/reference/sign-in.md "Headless API": its routes, the device bodies, and the
 * routes `/invitations/login`, `/invitations/accept`, `/invitations/email-otp/…` and `/logout`) over the
 * hosted flow's step capabilities. The routes validate the body with HEADLESS_ACTIONS' schema first; a
 * capability the deployment does not run answers 404 `not_available`.
 */
export const HEADLESS_ACTION_HANDLERS: HeadlessHandlers<HeadlessAction> = {
  identify: (h, b, browser) => h.identify(b.requestId, browser, b.email),
  'password/login': (h, b, browser) => h.password(b.requestId, browser, b.password),
  'password/forgot': forgotPassword,
  'password/reset': resetPassword,
  'email-otp/start': (h, b, browser) => {
    const emailOtp = need(h.deps.flow.methods.get(EMAIL_OTP), 'Email sign-in');
    return h.run(b.requestId, browser, () => emailOtp.startCode(b.requestId, browser, b.email));
  },
  'email-otp/verify': (h, b, browser) => {
    const emailOtp = need(h.deps.flow.methods.get(EMAIL_OTP), 'Email sign-in');
    return h.run(b.requestId, browser, () => emailOtp.verifyCode(b.requestId, browser, b.code));
  },
  'magic-link/start': (h, b, browser) => {
    const emailOtp = need(h.deps.flow.methods.get(EMAIL_OTP), 'Email sign-in');
    return h.run(b.requestId, browser, () => emailOtp.startLink(b.requestId, browser, b.email), {
      retry: 'magic-link',
    });
  },
  'magic-link/complete': (h, b, browser) => {
    const landing = need(h.deps.flow.methods.get(MAGIC_LINK), 'Email sign-in');
    return h.run(b.requestId, browser, async (record) => {
      const outcome = await landing.open(b.token, browser, record.id);
      // Only a direct link is handed off, and open() refused every link of another request already.
      return outcome.kind === 'handoff' ? { kind: 'next', requestId: record.id } : outcome;
    });
  },
  'phone-otp/start': (h, b, browser) => {
    const phoneOtp = need(h.deps.flow.methods.get(PHONE_OTP), 'Phone sign-in');
    return h.run(b.requestId, browser, () => phoneOtp.startLogin(b.requestId, browser, b.phoneNumber));
  },
  'phone-otp/verify': (h, b, browser) => {
    const phoneOtp = need(h.deps.flow.methods.get(PHONE_OTP), 'Phone sign-in');
    return h.run(b.requestId, browser, () => phoneOtp.verifyLogin(b.requestId, browser, b.code));
  },
  signup: (h, b, browser) => {
    const signup = need(h.deps.flow.methods.get(SIGNUP), 'Signup');
    return h.run(b.requestId, browser, () =>
      signup.signUp(b.requestId, browser, { ...b, organizationName: b.organizationName }),
    );
  },
  'signup/email-otp/start': (h, b, browser) => {
    const emailSignup = need(h.deps.flow.methods.get(EMAIL_SIGNUP), 'Email signup');
    return h.run(b.requestId, browser, () =>
      emailSignup.start(b.requestId, browser, { ...b, organizationName: b.organizationName }),
    );
  },
  'signup/email-otp/verify': (h, b, browser) => {
    const emailSignup = need(h.deps.flow.methods.get(EMAIL_SIGNUP), 'Email signup');
    return h.run(b.requestId, browser, () => emailSignup.verify(b.requestId, browser, b.code));
  },
  'signup/phone-otp/start': (h, b, browser) => {
    const phoneOtp = need(h.deps.flow.methods.get(PHONE_OTP), 'Phone signup');
    return h.run(b.requestId, browser, () =>
      phoneOtp.startSignup(b.requestId, browser, { ...b, organizationName: b.organizationName }),
    );
  },
  'signup/phone-otp/verify': (h, b, browser) => {
    const phoneOtp = need(h.deps.flow.methods.get(PHONE_OTP), 'Phone signup');
    return h.run(b.requestId, browser, () => phoneOtp.verifySignup(b.requestId, browser, b.code));
  },
  ...INVITATION_HANDLERS,
  'organization/select': (h, b, browser) =>
    h.selectOrganization(b.requestId, browser, b.organizationId, b.pendingToken),
  'mfa/verify': (h, b, browser) => h.verifyMfa(b.requestId, browser, b.code),
  // Enrollment starts when the request reaches it; this answers its view (QR code and secret).
  'mfa/totp/enroll/start': (h, b, browser) => h.current(b.requestId, browser),
  'mfa/totp/enroll/verify': (h, b, browser) => h.verifyEnrollment(b.requestId, browser, b.code),
  'consent/approve': (h, b, browser) => h.consent(b.requestId, browser, b.consentToken, 'approve'),
  'consent/deny': (h, b, browser) => h.consent(b.requestId, browser, b.consentToken, 'deny'),
  'provider/start': (h, b, browser) => {
    const provider = need(h.deps.flow.methods.get(PROVIDER), 'Provider sign-in');
    const connectionId = b.providerId ?? b.connectionId ?? '';
    return h.run(b.requestId, browser, () => provider.start(b.requestId, browser, connectionId));
  },
  'device/resolve': resolveDevice,
  'device/approve': (h, b, browser) => decideDevice(h, b, browser, 'approve'),
  'device/deny': (h, b, browser) => decideDevice(h, b, browser, 'deny'),
  logout: async (h, b, browser) => {
    const { request } = await h.request(b.requestId, browser);
    await h.deps.logout.logout(browser.sessionToken, {
      clientId: undefined,
      postLogoutRedirectUri: undefined,
      state: undefined,
    });
    return { ...h.viewAnswer('logged-out', request), sessionEnded: true };
  },
};

/** POST /password/forgot: "check your email" for every address; the link leads back to this request. */
async function forgotPassword(
  h: HeadlessSignIn,
  b: HeadlessActionBodies['password/forgot'],
  browser: HeadlessBrowser,
  call: HeadlessCall,
): Promise<HeadlessAnswer> {
  const account = need(h.deps.account, 'Password reset');
  const { record, request } = await h.request(b.requestId, browser);
  const email = b.email.trim();
  const retry = (code: 'email_required' | 'email_invalid' | 'email_not_ascii') =>
    h.viewAnswer('forgot-password', request, { email }, { code, message: MESSAGES[code] });
  if (email === '') return retry('email_required');
  let sent;
  try {
    // The public operation: unknown and passwordless addresses answer the same as known ones.
    sent = await account.requestPasswordResetEmail(
      { email, clientId: record.clientId },
      { route: call.route, ipAddress: call.ipAddress },
      { returnRequestId: record.id },
    );
  } catch (error) {
    // The shape of the address and the rate limit (alike for every address) come first: nothing leaks.
    if (error instanceof SvcSendRefusedError) {
      const fields = { email, resendAvailableAt: toIso(error.refused.nextAllowedSendAt) };
      const status = 429;
      return {
        ...h.viewAnswer('forgot-password', request, fields, {
          code: error.code,
          message: error.message,
          status,
        }),
        retryAfterSeconds: error.retryAfterSeconds,
      };
    }
    if (!(error instanceof SvcValidationError)) throw error;
    return retry(emailStepError(email));
  }
  return h.viewAnswer('forgot-password-sent', request, {
    resendAvailableAt: sent.nextAllowedSendAt,
  });
}

/** POST /password/reset: the emailed token sets the new password; then the request's sign-in view. */
async function resetPassword(
  h: HeadlessSignIn,
  b: HeadlessActionBodies['password/reset'],
  browser: HeadlessBrowser,
): Promise<HeadlessAnswer> {
  const account = need(h.deps.account, 'Password reset');
  const { request } = await h.request(b.requestId, browser);
  const retry = (code: 'invalid_token' | 'password_too_short' | 'password_too_long') =>
    h.viewAnswer('password-reset', request, {}, { code, message: MESSAGES[code] });
  // A dead link says so first: no point choosing a password it cannot set.
  const call = browser.ipAddress === undefined ? {} : { ipAddress: browser.ipAddress };
  if (!(await account.isPasswordResetTokenLive(b.token, call))) return retry('invalid_token');
  if (b.newPassword.length < MIN_PASSWORD_LENGTH) return retry('password_too_short');
  if (b.newPassword.length > MAX_PASSWORD_LENGTH) return retry('password_too_long');
  try {
    await account.resetPassword({ token: b.token, newPassword: b.newPassword }, call);
  } catch (error) {
    // Used or expired between the check and the reset (another tab).
    if (error instanceof SvcPublicAuthError && error.code === 'invalid_token') return retry('invalid_token');
    throw error;
  }
  const next = await h.current(b.requestId, browser);
  if (next.body.viewModel === null) return next;
  return { ...next, body: { ...next.body, viewModel: { ...next.body.viewModel, passwordChanged: true } } };
}

/**
 * POST /device/resolve: the code on the device opens a device request bound to this browser. Like
 * /start, it never reuses the browser's issuer session: approving a device always follows a sign-in here.
 */
async function resolveDevice(
  h: HeadlessSignIn,
  b: HeadlessActionBodies['device/resolve'],
  browser: HeadlessBrowser,
): Promise<HeadlessAnswer> {
  const outcome = await h.deps.flow.methods
    .require(DEVICE)
    .verify(b.userCode, { ...browser, sessionToken: undefined });
  if (outcome.kind === 'next') return h.current(outcome.requestId, browser);
  const request = { requestId: b.requestId ?? '', clientName: '', providers: [] };
  return h.viewAnswer(
    'device',
    request,
    { userCode: outcome.userCode, ...retryAfter(outcome.retryAfterMs) },
    deviceError(outcome.error),
  );
}

function retryAfter(ms: number | undefined): Record<string, number> {
  return ms === undefined ? {} : { retryAfterSeconds: retryAfterSeconds(ms) };
}

function deviceError(error: DeviceVerifyError): { code: string; message: string; status: 400 | 429 } {
  return { code: error, message: MESSAGES[error], status: error === 'device_code_rate_limited' ? 429 : 400 };
}

/**
 * POST /device/approve and /device/deny: only with the code the user compared with the device's screen
 * (the approval view's `userCode`), so a UI cannot decide a device the user never saw.
 */
async function decideDevice(
  h: HeadlessSignIn,
  b: HeadlessActionBodies['device/approve'],
  browser: HeadlessBrowser,
  decision: 'approve' | 'deny',
): Promise<HeadlessAnswer> {
  const device = h.deps.flow.methods.require(DEVICE);
  const { record, request } = await h.request(b.requestId, browser);
  if (record.status === 'device_approval') {
    const step = await device.approvalStep(record, browser);
    const shown = step.kind === 'device_approval' ? normalizeUserCode(step.userCode) : null;
    if (shown === null || normalizeUserCode(b.userCode) !== shown) {
      const view = await h.view(step, browser);
      return {
        status: 400,
        body: { ...view, error: 'device_code_mismatch', message: MESSAGES.device_code_mismatch },
      };
    }
  }
  const outcome =
    decision === 'approve'
      ? await device.approve(b.requestId, browser)
      : await device.deny(b.requestId, browser);
  if (outcome.kind === 'next') return h.current(outcome.requestId, browser);
  return h.viewAnswer(outcome.decision === 'approved' ? 'device-approved' : 'device-denied', request);
}
