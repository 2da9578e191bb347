import type { FastifyPluginAsync } from 'fastify';
import { runStep } from '../login/step-routes.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { CONSENT } from '../../signin/methods/consent/consent-actions.js';

/**
 * The consent posts (docs/reference/sign-in.md "Application access and consent": POST /consent/approve, /consent/deny — deny redirects with
 * access_denied). The consent page itself is a step of GET /login.
 */
export function consentRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  const consent = deps.flow.methods.require(CONSENT);
  return async (app) => {
    app.post(
      '/consent/approve',
      runStep(deps, (id, browser) => consent.approve(id, browser)),
    );
    app.post(
      '/consent/deny',
      runStep(deps, (id, browser) => consent.deny(id, browser)),
    );
  };
}
