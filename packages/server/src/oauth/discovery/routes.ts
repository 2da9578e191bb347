import { ifNoneMatchHits } from '../../http/conditional.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SigningKeys } from '../keys/signing-keys.js';
import { oauthErrorHandler } from '../../http/oauth-error-handler.js';
import type { Discovery } from './discovery.js';

export interface DiscoveryRoutesDeps {
  readonly discovery: Discovery;
  readonly keys: SigningKeys;
  /** OpenID provider mode and PublishDiscoveryDocument both on. */
  readonly publishOpenIdConfiguration: boolean;
}

function sendCached(
  request: FastifyRequest,
  reply: FastifyReply,
  doc: { body: string; etag: string },
  maxAge: number,
) {
  reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', `public, max-age=${maxAge}`)
    .header('etag', doc.etag)
    .header('access-control-allow-origin', '*');
  if (ifNoneMatchHits(request.headers['if-none-match'], doc.etag)) return reply.code(304).send();
  return reply.send(doc.body);
}

/** The discovery documents and the JWKS, under the auth base. */
export function discoveryRoutes(deps: DiscoveryRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(oauthErrorHandler);
    app.get('/.well-known/oauth-authorization-server', async (request, reply) =>
      sendCached(request, reply, await deps.discovery.document(), 300),
    );
    if (deps.publishOpenIdConfiguration) {
      app.get('/.well-known/openid-configuration', async (request, reply) =>
        sendCached(request, reply, await deps.discovery.document(), 300),
      );
    }
    app.get('/.well-known/jwks.json', async (request, reply) =>
      sendCached(request, reply, await deps.keys.jwks(), 300),
    );
  };
}
