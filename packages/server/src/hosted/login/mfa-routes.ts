import type { FastifyPluginAsync } from 'fastify';
import { HOSTED_FIELDS } from '../form.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { MFA } from '../../signin/methods/mfa/mfa-steps.js';
import { sendActionOutcome } from './outcome-reply.js';
import { browserContext, singleValue } from './request-values.js';

/**
 * The hosted second factor (docs/reference/sign-in.md "Hosted pages" hosted table: POST /mfa/verify, /mfa/totp/enroll/verify). The pages
 * themselves are the request's current step at GET /login; these posts run one step each.
 */
export function mfaRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  const mfa = deps.flow.methods.require(MFA);
  return async (app) => {
    app.post('/mfa/verify', async (request, reply) => {
      const outcome = await mfa.verify(
        singleValue(request.body, HOSTED_FIELDS.requestId),
        browserContext(request),
        singleValue(request.body, HOSTED_FIELDS.code),
      );
      return sendActionOutcome(reply, request, deps, outcome);
    });

    app.post('/mfa/totp/enroll/verify', async (request, reply) => {
      const outcome = await mfa.enroll(
        singleValue(request.body, HOSTED_FIELDS.requestId),
        browserContext(request),
        singleValue(request.body, HOSTED_FIELDS.code),
      );
      return sendActionOutcome(reply, request, deps, outcome);
    });
  };
}
