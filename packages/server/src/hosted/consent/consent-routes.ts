import type { FastifyPluginAsync } from 'fastify';
import { runStep } from '../login/step-routes.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';

/**
 * The consent posts (SPEC.md: "POST /consent/approve, /consent/deny — deny redirects with
 * access_denied"). The consent page itself is a step of GET /login.
 */
export function consentRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  return async (app) => {
    app.post(
      '/consent/approve',
      runStep(deps, (id, browser) => deps.flow.approveConsent(id, browser)),
    );
    app.post(
      '/consent/deny',
      runStep(deps, (id, browser) => deps.flow.denyConsent(id, browser)),
    );
  };
}
