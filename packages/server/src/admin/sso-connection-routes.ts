import {
  connectionListQuerySchema,
  createSsoConnectionBodySchema,
  importSsoMetadataBodySchema,
  pageQuerySchema,
  ssoConnectionPathSchema,
  ssoOrganizationPathSchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminSsoConnections } from '../app/facades/svc-admin-sso-connections.js';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';

/**
 * The operator routes of SAML SSO connections (docs/reference/federation.md "SAML connections"):
 * `GET/POST /organizations/{organizationId}/sso-connections` (POST answers a disabled draft, 201, with
 * `spEntityId` and `acsUrl`), `GET /sso-connections?organizationId=&enabled=&limit=&cursor=` (every
 * organization's, each with its `organization`), `GET /sso-connections/{id}`, `POST /sso-connections/{id}/metadata`
 * {metadataXml, enableConnection?}, `POST /sso-connections/{id}/enable` and `/disable`. Registered inside
 * the operator API at `/svc/admin/auth/api`, behind the operator guard; it parses with the contract
 * schemas (top-level field names case-insensitive) and calls the facade.
 */
export function ssoConnectionAdminRoutes(deps: {
  admin: Operations<SvcAdminSsoConnections>;
}): FastifyPluginAsync {
  const { admin } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/organizations/:organizationId/sso-connections', async (request) => {
      const { limit, cursor } = parseQuery(pageQuerySchema, request.query);
      return admin.listSsoConnectionsAsync(
        parseParams(ssoOrganizationPathSchema, request.params).organizationId,
        cursor === undefined ? { limit } : { limit, cursor },
      );
    });

    app.post('/organizations/:organizationId/sso-connections', async (request, reply) => {
      const { organizationId } = parseParams(ssoOrganizationPathSchema, request.params);
      const body = parseBody(createSsoConnectionBodySchema, request.body);
      const created = await admin.createSsoConnectionDraftAsync(
        { ...body, organizationId },
        operatorActor(request),
      );
      return reply.code(201).send(created);
    });

    app.get('/sso-connections', async (request) =>
      admin.listAllSsoConnectionsAsync(parseQuery(connectionListQuerySchema, request.query)),
    );

    app.get('/sso-connections/:id', async (request) =>
      admin.getSsoConnectionAsync(parseParams(ssoConnectionPathSchema, request.params).id),
    );

    app.post('/sso-connections/:id/metadata', async (request) => {
      const { metadataXml, enableConnection } = parseBody(importSsoMetadataBodySchema, request.body);
      return admin.importSsoMetadataAsync(
        parseParams(ssoConnectionPathSchema, request.params).id,
        metadataXml,
        enableConnection,
        operatorActor(request),
      );
    });

    app.post('/sso-connections/:id/enable', async (request) =>
      admin.enableSsoConnectionAsync(
        parseParams(ssoConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );

    app.post('/sso-connections/:id/disable', async (request) =>
      admin.disableSsoConnectionAsync(
        parseParams(ssoConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );
  };
}
