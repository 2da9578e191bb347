import type { FastifyPluginAsync } from 'fastify';
import type { SignupSteps } from '../../signin/methods/signup/signup-steps.js';
import { HOSTED_FIELDS } from '../form.js';
import { runStep, showStep } from '../login/step-routes.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';

/**
 * Hosted signup with an email and a password (docs/reference/sign-in.md "Hosted pages"): GET /signup shows
 * the form; POST /signup/submit creates the account and continues like a password sign-in (organization,
 * consent for a third-party client, the code), or shows the form again (400) with an inline error and
 * the typed values except the password. The form posts to a child path because POST /signup is the
 * direct JSON helper (SvcSignupRequest) on the same auth base.
 */
export function signupRoutes(deps: HostedSignInDeps & { readonly signup: SignupSteps }): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/signup',
      showStep(deps, (id, browser) => deps.signup.signupStep(id, browser)),
    );
    app.post(
      '/signup/submit',
      runStep(deps, (id, browser, field) =>
        deps.signup.signUp(id, browser, {
          displayName: field(HOSTED_FIELDS.displayName),
          email: field(HOSTED_FIELDS.email),
          password: field(HOSTED_FIELDS.password),
          organizationName: field(HOSTED_FIELDS.organizationName),
        }),
      ),
    );
  };
}
