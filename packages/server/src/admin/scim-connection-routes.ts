import {
  connectionListQuerySchema,
  createScimConnectionBodySchema,
  scimConnectionPathSchema,
  scimOrganizationPathSchema,
  scimSyncEventQuerySchema,
  updateScimConnectionBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminScimConnections } from '../app/facades/svc-admin-scim-connections.js';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor, pageRequest } from '../http/operator-request.js';

/**
 * The operator routes of SCIM connections (docs/reference/scim.md
 * "Connections"): `GET/POST /organizations/{organizationId}/scim-connections` (POST answers 201 with the
 * one-time `token` and `baseUrl`), `GET /scim-connections?organizationId=&enabled=&limit=&cursor=` (every
 * organization's, each with its `organization`, never a token), `GET/PUT /scim-connections/{id}`, `POST /scim-connections/{id}/enable`,
 * `/disable`, token rotation at both spellings the two documents give (`/token/rotate` and
 * `/rotate-token`), and `GET /scim-connections/{id}/sync-events`. Behind the operator guard.
 */
export function scimConnectionAdminRoutes(deps: {
  admin: Operations<SvcAdminScimConnections>;
}): FastifyPluginAsync {
  const { admin } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/organizations/:organizationId/scim-connections', async (request) =>
      admin.listScimConnectionsAsync(
        parseParams(scimOrganizationPathSchema, request.params).organizationId,
        pageRequest(request.query),
      ),
    );

    app.post('/organizations/:organizationId/scim-connections', async (request, reply) => {
      const { organizationId } = parseParams(scimOrganizationPathSchema, request.params);
      const body = parseBody(createScimConnectionBodySchema, request.body ?? {});
      const created = await admin.createScimConnectionAsync(
        { ...body, organizationId },
        operatorActor(request),
      );
      return reply.code(201).send(created);
    });

    app.get('/scim-connections', async (request) =>
      admin.listAllScimConnectionsAsync(parseQuery(connectionListQuerySchema, request.query)),
    );

    app.get('/scim-connections/:id', async (request) =>
      admin.getScimConnectionAsync(parseParams(scimConnectionPathSchema, request.params).id),
    );

    app.put('/scim-connections/:id', async (request) =>
      admin.updateScimConnectionAsync(
        parseParams(scimConnectionPathSchema, request.params).id,
        parseBody(updateScimConnectionBodySchema, request.body),
        operatorActor(request),
      ),
    );

    app.post('/scim-connections/:id/enable', async (request) =>
      admin.enableScimConnectionAsync(
        parseParams(scimConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );

    app.post('/scim-connections/:id/disable', async (request) =>
      admin.disableScimConnectionAsync(
        parseParams(scimConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );

    const rotate = async (request: FastifyRequest) =>
      admin.rotateScimConnectionTokenAsync(
        parseParams(scimConnectionPathSchema, request.params).id,
        operatorActor(request),
      );
    app.post('/scim-connections/:id/token/rotate', rotate);
    app.post('/scim-connections/:id/rotate-token', rotate);

    app.get('/scim-connections/:id/sync-events', async (request) => {
      const { id } = parseParams(scimConnectionPathSchema, request.params);
      const { limit, cursor, outcome } = parseQuery(scimSyncEventQuerySchema, request.query);
      return admin.listScimSyncEventsAsync(id, {
        limit,
        ...(cursor === undefined ? {} : { cursor }),
        ...(outcome === undefined ? {} : { outcome }),
      });
    });
  };
}
