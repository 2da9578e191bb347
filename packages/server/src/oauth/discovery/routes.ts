import type { FastifyPluginAsync, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { ifNoneMatchHits } from '../../http/conditional.js';
import { oauthErrorHandler } from '../../http/oauth-error-handler.js';
import type { StaticDocument } from '../../kernel/static-document.js';
import type { SigningKeys } from '../keys/signing-keys.js';
import type { Discovery } from './discovery.js';

export interface DiscoveryRoutesDeps {
  readonly discovery: Discovery;
  readonly keys: SigningKeys;
  /** OpenID provider mode and PublishDiscoveryDocument both on. */
  readonly publishOpenIdConfiguration: boolean;
}

/**
 * A verifier that meets a kid it does not know fetches the JWKS again, so a copy must not outlive a
 * rotation by long; after five minutes a cache asks again, which an unchanged set answers with a 304
 * (docs/decisions/signing-keys-jwks-discovery-caching.md).
 */
export const JWKS_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

/** Discovery changes with a deployment or with the scopes clients may ask for: an hour, then a 304. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=3600, must-revalidate';

/** A document kept in memory: `current()` while fresh, else `load()` reads what it is made from. */
interface StaticDocumentSource {
  current(): StaticDocument | undefined;
  load(): Promise<StaticDocument>;
}

function send(request: FastifyRequest, reply: FastifyReply, doc: StaticDocument, cacheControl: string): void {
  reply
    .header('content-type', 'application/json; charset=utf-8')
    .header('cache-control', cacheControl)
    .header('etag', doc.etag)
    .header('access-control-allow-origin', '*');
  if (ifNoneMatchHits(request.headers['if-none-match'], doc.etag)) reply.code(304).send();
  else reply.send(doc.body);
}

/**
 * Answers from memory without a promise while the document is fresh; only a request that finds it due
 * waits, for one read shared with every other such request.
 */
function staticRoute(source: StaticDocumentSource, cacheControl: string): RouteHandlerMethod {
  return (request, reply) => {
    const doc = source.current();
    if (doc !== undefined) {
      send(request, reply, doc, cacheControl);
      return;
    }
    return source.load().then((loaded) => send(request, reply, loaded, cacheControl));
  };
}

/** The discovery documents and the JWKS, under the auth base. */
export function discoveryRoutes(deps: DiscoveryRoutesDeps): FastifyPluginAsync {
  const discovery: StaticDocumentSource = {
    current: () => deps.discovery.current(),
    load: () => deps.discovery.document(),
  };
  const jwks: StaticDocumentSource = {
    current: () => deps.keys.currentJwks(),
    load: () => deps.keys.jwks(),
  };
  return async (app) => {
    app.setErrorHandler(oauthErrorHandler);
    app.get('/.well-known/oauth-authorization-server', staticRoute(discovery, DISCOVERY_CACHE_CONTROL));
    if (deps.publishOpenIdConfiguration) {
      app.get('/.well-known/openid-configuration', staticRoute(discovery, DISCOVERY_CACHE_CONTROL));
    }
    app.get('/.well-known/jwks.json', staticRoute(jwks, JWKS_CACHE_CONTROL));
  };
}
