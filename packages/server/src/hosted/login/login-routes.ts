import type { FastifyPluginAsync } from 'fastify';
import { HOSTED_FIELDS } from '../form.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { sendActionOutcome, sendStep } from './outcome-reply.js';
import { browserContext, singleValue } from './request-values.js';

/**
 * The hosted sign-in pages of an authorization request (SPEC.md "Hosted pages"): GET /login shows the
 * request's current step (identify, password, organization, consent); the posts run one step each and
 * answer with a redirect (to the next step or to the client) or the same page with an inline error.
 * Registered inside `hostedRoutes`, so every post has passed the antiforgery check before it gets here.
 */
export function loginRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
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

    app.post('/login/identify', async (request, reply) => {
      const outcome = await deps.flow.identify(
        singleValue(request.body, HOSTED_FIELDS.requestId),
        browserContext(request),
        singleValue(request.body, HOSTED_FIELDS.email),
      );
      return sendActionOutcome(reply, request, deps, outcome);
    });

    app.post('/login/password', async (request, reply) => {
      const outcome = await deps.flow.password(
        singleValue(request.body, HOSTED_FIELDS.requestId),
        browserContext(request),
        singleValue(request.body, HOSTED_FIELDS.password),
      );
      return sendActionOutcome(reply, request, deps, outcome);
    });

    app.post('/login/select-organization', async (request, reply) => {
      const outcome = await deps.flow.selectOrganization(
        singleValue(request.body, HOSTED_FIELDS.requestId),
        browserContext(request),
        singleValue(request.body, HOSTED_FIELDS.pendingToken),
        singleValue(request.body, HOSTED_FIELDS.organizationId),
      );
      return sendActionOutcome(reply, request, deps, outcome);
    });
  };
}
