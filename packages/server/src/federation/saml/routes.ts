import { samlConnectionPathSchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { parseParams } from '../../http/body.js';
import { jsonErrorHandler } from '../../http/errors.js';
import type { SamlServiceProvider } from './service-provider.js';

/**
 * `GET /saml/metadata/{connectionId}` under the auth base (docs/reference/federation.md "Bindings"): the SP
 * metadata an IdP is configured with, for drafts too. Public: it holds nothing but the entity id and the ACS
 * URL. An unknown connection is a 404.
 */
export function samlMetadataRoutes(deps: { serviceProvider: SamlServiceProvider }): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.get('/saml/metadata/:connectionId', async (request, reply) => {
      const { connectionId } = parseParams(samlConnectionPathSchema, request.params);
      const metadata = await deps.serviceProvider.metadata(connectionId);
      return reply
        .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
        .header('cache-control', 'no-cache')
        .send(metadata);
    });
  };
}
