import type { FastifyPluginAsync } from 'fastify';
import type { SvcAuthService } from '../app/facades/svc-auth-service.js';
import { directErrorHandler } from './routes.js';

export interface OidcDirectRoutesDeps {
  readonly auth: Pick<SvcAuthService, 'listEnabledProvidersAsync'>;
}

/**
 * SPEC.md "Social, SSO and provider routes" (mounted at `{authBase}`): GET /oidc/providers lists the
 * enabled providers, a button each for an app-owned sign-in UI. Public: names and logos only.
 */
export function oidcDirectRoutes(deps: OidcDirectRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    app.get('/oidc/providers', async (_request, reply) => {
      // Disabling a connection takes its button away at once: nothing caches the list.
      reply.header('cache-control', 'no-store');
      return deps.auth.listEnabledProvidersAsync();
    });
  };
}
