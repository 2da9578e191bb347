import type { FastifyPluginAsync } from 'fastify';
import type { EmailOtpSteps } from '../../signin/methods/email-otp/email-otp-steps.js';
import type { EmailSignupSteps } from '../../signin/methods/signup/email-signup-steps.js';
import { HOSTED_FIELDS } from '../form.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { runStep, showStep } from './step-routes.js';

/** What the hosted email sign-in pages need. */
export interface EmailOtpRoutesDeps extends HostedSignInDeps {
  readonly emailOtp: EmailOtpSteps;
  readonly emailSignup?: EmailSignupSteps;
}

/**
 * Email sign-in of an authorization request (docs/reference/sign-in.md "Hosted pages": GET plus child POST
 * /login/email-otp): GET /login/email-otp?request_id= shows the address form; POST
 * /login/email-otp/start emails a code and POST /login/magic-link/start a sign-in link (303 to GET
 * /login, which shows the enter-code or "check your email" step); POST /login/email-otp/verify checks
 * the code; POST /login/magic-link/resend sends a new link. Registered inside `hostedRoutes`, so every
 * post has passed the antiforgery check before it gets here.
 */
export function emailOtpRoutes(deps: EmailOtpRoutesDeps): FastifyPluginAsync {
  const { emailOtp } = deps;
  return async (app) => {
    app.get(
      '/login/email-otp',
      showStep(deps, (id, browser) => emailOtp.emailStep(id, browser)),
    );
    app.post(
      '/login/email-otp/start',
      runStep(deps, (id, browser, field) => emailOtp.startCode(id, browser, field(HOSTED_FIELDS.email))),
    );
    app.post(
      '/login/magic-link/start',
      runStep(deps, (id, browser, field) => emailOtp.startLink(id, browser, field(HOSTED_FIELDS.email))),
    );
    app.post(
      '/login/magic-link/resend',
      runStep(deps, (id, browser) => emailOtp.resendLink(id, browser)),
    );
    app.post(
      '/login/email-otp/verify',
      runStep(deps, (id, browser, field) => emailOtp.verifyCode(id, browser, field(HOSTED_FIELDS.code))),
    );
    // The enter-code page of a signup by emailed code (started through the headless API) posts here.
    const { emailSignup } = deps;
    if (emailSignup !== undefined) {
      app.post(
        '/signup/email-otp/verify',
        runStep(deps, (id, browser, field) => emailSignup.verify(id, browser, field(HOSTED_FIELDS.code))),
      );
    }
  };
}
