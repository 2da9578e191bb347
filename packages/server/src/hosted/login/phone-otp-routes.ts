import type { FastifyPluginAsync } from 'fastify';
import { PHONE_OTP } from '../../signin/methods/phone-otp/method.js';
import type { PhoneOtpSteps } from '../../signin/methods/phone-otp/phone-otp-steps.js';
import { SvcHostedPageError } from '../../signin/flow/page-error.js';
import { currentStepHref, HOSTED_FIELDS } from '../form.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { runStep, showStep } from './step-routes.js';

/**
 * The answer of every phone page when SMS is not configured (404: the feature is not there). It links
 * back to the request's sign-in when the page was opened for one.
 */
export function phoneSignInUnavailableError(
  authBase: string,
  requestId: string | undefined,
): SvcHostedPageError {
  return new SvcHostedPageError(
    'Phone sign-in is not available',
    'Signing in or signing up with a text message is not set up for this service. Go back and use another way.',
    {
      status: 404,
      code: 'phone_sign_in_unavailable',
      ...(requestId === undefined ? {} : { backHref: currentStepHref(authBase, requestId) }),
    },
  );
}

/** The phone steps, or the "not available" page when SMS is not configured. */
export function requirePhoneSteps(deps: HostedSignInDeps, requestId: string | undefined): PhoneOtpSteps {
  const phoneOtp = deps.flow.methods.get(PHONE_OTP);
  if (phoneOtp === undefined) throw phoneSignInUnavailableError(deps.site.authBase, requestId);
  return phoneOtp;
}

/**
 * Hosted phone sign-in (docs/reference/sign-in.md "Phone codes"): GET /login/phone-otp shows the
 * number form; POST /login/phone-otp/start texts a code and answers 303 to the request's enter-code step
 * (GET /login); POST /login/phone-otp/verify (posted by that step) signs in or shows the step again with
 * an inline error. Registered inside `hostedRoutes`: every post has passed the antiforgery check.
 */
export function phoneOtpRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/login/phone-otp',
      showStep(deps, (id, browser) => requirePhoneSteps(deps, id).loginStep(id, browser)),
    );
    app.post(
      '/login/phone-otp/start',
      runStep(deps, (id, browser, field) =>
        requirePhoneSteps(deps, id).startLogin(id, browser, field(HOSTED_FIELDS.phoneNumber)),
      ),
    );
    app.post(
      '/login/phone-otp/verify',
      runStep(deps, (id, browser, field) =>
        requirePhoneSteps(deps, id).verifyLogin(id, browser, field(HOSTED_FIELDS.code)),
      ),
    );
  };
}
