import type { FastifyPluginAsync } from 'fastify';
import { consentRoutes } from './consent/consent-routes.js';
import { loginRoutes } from './login/login-routes.js';
import { logoutRoutes } from './logout/logout-routes.js';
import type { HostedSignInDeps } from './sign-in-deps.js';

/**
 * Every hosted sign-in route: GET /login, POST /login/identify, /login/password,
 * /login/select-organization, POST /consent/approve, /consent/deny and GET /logout. Pass it in
 * `hostedRoutes({ routes: [authorizeRoutes(deps), hostedSignInRoutes(deps)] })`, so that the routes get
 * the form parser, cookies, security headers, antiforgery check and error page of the hosted plugin.
 */
export function hostedSignInRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  return async (app) => {
    await app.register(loginRoutes(deps));
    await app.register(consentRoutes(deps));
    await app.register(logoutRoutes(deps));
  };
}
