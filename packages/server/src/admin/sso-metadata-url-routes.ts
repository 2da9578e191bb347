import { importSsoMetadataUrlBodySchema, ssoConnectionPathSchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { SsoMetadataUrlImport } from '../federation/saml/metadata-url-import.js';
import { parseBody } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';
import { validate } from '../kernel/validation.js';

type ById = { Params: { id: string } };

/**
 * The operators' import of a SAML connection's IdP metadata from its URL (docs/reference/federation.md
 * "SAML connections"): `POST /sso-connections/{id}/metadata-url` {metadataUrl, enableConnection?} fetches
 * the document (https only, public addresses unless `SVC_SSO_METADATA_ALLOWED_NETWORKS` lists more, no
 * redirects, one deadline) and answers the connection as `POST /sso-connections/{id}/metadata` does; a URL
 * Svc will not fetch, or what it fetched, is a 400 naming `metadataUrl`. Registered inside the operator API
 * at `/svc/admin/auth/api`, behind the operator guard.
 */
export function ssoMetadataUrlAdminRoutes(deps: {
  metadataUrls: Pick<SsoMetadataUrlImport, 'importFromUrl'>;
}): FastifyPluginAsync {
  const { metadataUrls } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post<ById>('/sso-connections/:id/metadata-url', async (request) => {
      const { id } = validate(ssoConnectionPathSchema, request.params, 'connection id');
      const body = parseBody(importSsoMetadataUrlBodySchema, request.body);
      return metadataUrls.importFromUrl(id, body, operatorActor(request));
    });
  };
}
