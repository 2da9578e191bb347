import type { FastifyPluginAsync } from 'fastify';
import { oauthErrorHandler } from '../../http/oauth-error-handler.js';
import { staticDocumentHandler, type StaticDocumentRoute } from '../../http/static-documents.js';
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
 * (docs/reference/tokens-and-sessions.md "Discovery and JWKS").
 */
export const JWKS_CACHE_CONTROL = 'public, max-age=300, must-revalidate';

/** Discovery changes with a deployment or with the scopes clients may ask for: an hour, then a 304. */
export const DISCOVERY_CACHE_CONTROL = 'public, max-age=3600, must-revalidate';

/**
 * The discovery documents and the JWKS, with paths relative to the auth base: served by
 * `discoveryRoutes` and, in the standalone server, answered before routing as well.
 */
export function discoveryDocuments(deps: DiscoveryRoutesDeps): readonly StaticDocumentRoute[] {
  const discovery = {
    cacheControl: DISCOVERY_CACHE_CONTROL,
    current: () => deps.discovery.current(),
    load: () => deps.discovery.document(),
  };
  return [
    { path: AS_METADATA_PATH, ...discovery },
    ...(deps.publishOpenIdConfiguration ? [{ path: '/.well-known/openid-configuration', ...discovery }] : []),
    {
      path: '/.well-known/jwks.json',
      cacheControl: JWKS_CACHE_CONTROL,
      current: () => deps.keys.currentJwks(),
      load: () => deps.keys.jwks(),
    },
  ];
}

export const AS_METADATA_PATH = '/.well-known/oauth-authorization-server';

/**
 * RFC 8414 §3.1: the metadata of an issuer with a path (`https://id.example.com/svc/auth`) is at the
 * host's root with that path after the well-known name (`/.well-known/oauth-authorization-server/svc/auth`),
 * where RFC 8414 clients (oauth4webapi's `oauth2` discovery, MCP clients) look first. The document of
 * `documents` (relative to the auth base) at that whole path, beside its place under the auth base.
 */
export function rootDiscoveryDocuments(
  documents: readonly StaticDocumentRoute[],
  authBase: string,
): readonly StaticDocumentRoute[] {
  return documents
    .filter((document) => document.path === AS_METADATA_PATH)
    .map((document) => ({ ...document, path: `${AS_METADATA_PATH}${authBase}` }));
}

/** The routes of `discoveryDocuments`, under the auth base (or of `rootDiscoveryDocuments`, at the root). */
export function discoveryRoutes(documents: readonly StaticDocumentRoute[]): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(oauthErrorHandler);
    for (const document of documents) app.get(document.path, staticDocumentHandler(document));
  };
}
