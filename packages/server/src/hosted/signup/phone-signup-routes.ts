import type { FastifyPluginAsync } from 'fastify';
import { HOSTED_FIELDS } from '../form.js';
import { requirePhoneSteps } from '../login/phone-otp-routes.js';
import { runStep, showStep } from '../login/step-routes.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';

/**
 * Hosted signup with a phone number (docs/reference/sign-in.md "Phone codes"): GET shows the form (name,
 * number, optional organization); POST /signup/phone-otp/start texts a code to a number without an
 * account and answers 303 to the request's enter-code step; POST /signup/phone-otp/verify (posted by
 * that step) creates the account and signs it in. Without SMS every route shows "not available".
 */
export function phoneSignupRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/signup/phone-otp',
      showStep(deps, (id, browser) => requirePhoneSteps(deps, id).signupStep(id, browser)),
    );
    app.post(
      '/signup/phone-otp/start',
      runStep(deps, (id, browser, field) =>
        requirePhoneSteps(deps, id).startSignup(id, browser, {
          displayName: field(HOSTED_FIELDS.displayName),
          phoneNumber: field(HOSTED_FIELDS.phoneNumber),
          organizationName: field(HOSTED_FIELDS.organizationName),
        }),
      ),
    );
    app.post(
      '/signup/phone-otp/verify',
      runStep(deps, (id, browser, field) =>
        requirePhoneSteps(deps, id).verifySignup(id, browser, field(HOSTED_FIELDS.code)),
      ),
    );
  };
}
