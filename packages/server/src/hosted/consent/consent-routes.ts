import type { FastifyPluginAsync } from 'fastify';
import { HOSTED_FIELDS } from '../form.js';
import { sendActionOutcome } from '../login/outcome-reply.js';
import { browserContext, singleValue } from '../login/request-values.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';

/**
 * The consent posts (SPEC.md: "POST /consent/approve, /consent/deny — deny redirects with
 * access_denied"). The consent page itself is a step of GET /login.
 */
export function consentRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  return async (app) => {
    app.post('/consent/approve', async (request, reply) => {
      const outcome = await deps.flow.approveConsent(
        singleValue(request.body, HOSTED_FIELDS.requestId),
        browserContext(request),
      );
      return sendActionOutcome(reply, request, deps, outcome);
    });

    app.post('/consent/deny', async (request, reply) => {
      const outcome = await deps.flow.denyConsent(
        singleValue(request.body, HOSTED_FIELDS.requestId),
        browserContext(request),
      );
      return sendActionOutcome(reply, request, deps, outcome);
    });
  };
}
