import type { FastifyPluginAsync } from 'fastify';
import { HOSTED_FIELDS } from '../form.js';
import { INVITATION_FIELDS } from '../invitations/invitation-pages.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { invitationSteps } from '../../signin/methods/invitation/invitation-steps.js';
import { ORGANIZATION } from '../../signin/methods/organization/organization-method.js';
import { PASSWORD } from '../../signin/methods/password/password-method.js';
import { sendStep } from './outcome-reply.js';
import { browserContext, singleValue } from './request-values.js';
import { runStep } from './step-routes.js';

/**
 * The hosted sign-in pages of an authorization request (docs/reference/sign-in.md "Hosted pages"): GET /login shows the
 * request's current step (identify, password, invitation, organization, consent); the posts run one step each and
 * answer with a redirect (to the next step or to the client) or the same page with an inline error.
 * Registered inside `hostedRoutes`, so every post has passed the antiforgery check before it gets here.
 */
export function loginRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  const methods = deps.flow.methods;
  const passwords = methods.require(PASSWORD);
  const organizations = methods.require(ORGANIZATION);
  return async (app) => {
    app.get('/login', async (request, reply) => {
      const outcome = await deps.flow.step(
        singleValue(request.query, HOSTED_FIELDS.requestId),
        browserContext(request),
        { identify: singleValue(request.query, 'step') === 'identify' },
      );
      if (outcome.kind === 'redirect') return reply.redirect(outcome.location, 302);
      return sendStep(reply, request, deps, outcome.step);
    });

    app.post(
      '/login/identify',
      runStep(deps, (id, browser, field) => deps.flow.identify(id, browser, field(HOSTED_FIELDS.email))),
    );
    app.post(
      '/login/password',
      runStep(deps, (id, browser, field) => passwords.password(id, browser, field(HOSTED_FIELDS.password))),
    );
    // A request bound to an invitation: the invited address's new account (hosted/invitations' field name).
    app.post(
      '/login/invitation/signup',
      runStep(deps, (id, browser, field) =>
        invitationSteps(methods).signup(id, browser, field(INVITATION_FIELDS.displayName)),
      ),
    );
    app.post(
      '/login/select-organization',
      runStep(deps, (id, browser, field) =>
        organizations.select(
          id,
          browser,
          field(HOSTED_FIELDS.pendingToken),
          field(HOSTED_FIELDS.organizationId),
        ),
      ),
    );
  };
}
