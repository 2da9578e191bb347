import { svcHomeRealmDiscoveryRequestSchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { SvcAuthProviders } from '../app/facades/svc-auth-providers.js';
import { parseBody } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';

/**
 * The operators' preview of home-realm discovery (docs/reference/federation.md "Home-realm discovery"):
 * `POST /home-realm-discovery` {email} answers where the user of that address signs in, as the hosted
 * identify step and headless `/identify` decide it: `{mode: 'sso', organizationId, organizationName,
 * primaryDomain, connectionId}` or `{mode: 'password'}`. It starts no sign-in and writes nothing (a POST
 * so that the address stays out of URLs and request logs). Registered inside the operator API at
 * `/svc/admin/auth/api`, behind the operator guard.
 */
export function homeRealmAdminRoutes(deps: {
  homeRealms: Pick<SvcAuthProviders, 'discoverAsync'>;
}): FastifyPluginAsync {
  const { homeRealms } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/home-realm-discovery', async (request) =>
      homeRealms.discoverAsync(parseBody(svcHomeRealmDiscoveryRequestSchema, request.body)),
    );
  };
}
