import {
  connectionListQuerySchema,
  createScimConnectionBodySchema,
  scimSyncEventQuerySchema,
  updateScimConnectionBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminScimConnections } from '../app/facades/svc-admin-scim-connections.js';
import { parseBody, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor, pageRequest } from '../http/operator-request.js';

type ById = { Params: { id: string } };
type ByOrganization = { Params: { organizationId: string } };

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

    app.get<ByOrganization>('/organizations/:organizationId/scim-connections', async (request) =>
      admin.listScimConnectionsAsync(request.params.organizationId, pageRequest(request.query)),
    );

    app.post<ByOrganization>('/organizations/:organizationId/scim-connections', async (request, reply) => {
      const body = parseBody(createScimConnectionBodySchema, request.body ?? {});
      const created = await admin.createScimConnectionAsync(
        { ...body, organizationId: request.params.organizationId },
        operatorActor(request),
      );
      return reply.code(201).send(created);
    });

    app.get('/scim-connections', async (request) =>
      admin.listAllScimConnectionsAsync(parseQuery(connectionListQuerySchema, request.query)),
    );

    app.get<ById>('/scim-connections/:id', async (request) =>
      admin.getScimConnectionAsync(request.params.id),
    );

    app.put<ById>('/scim-connections/:id', async (request) =>
      admin.updateScimConnectionAsync(
        request.params.id,
        parseBody(updateScimConnectionBodySchema, request.body),
        operatorActor(request),
      ),
    );

    app.post<ById>('/scim-connections/:id/enable', async (request) =>
      admin.enableScimConnectionAsync(request.params.id, operatorActor(request)),
    );

    app.post<ById>('/scim-connections/:id/disable', async (request) =>
      admin.disableScimConnectionAsync(request.params.id, operatorActor(request)),
    );

    const rotate = async (request: FastifyRequest<ById>) =>
      admin.rotateScimConnectionTokenAsync(request.params.id, operatorActor(request));
    app.post<ById>('/scim-connections/:id/token/rotate', rotate);
    app.post<ById>('/scim-connections/:id/rotate-token', rotate);

    app.get<ById>('/scim-connections/:id/sync-events', async (request) => {
      const { limit, cursor, outcome } = parseQuery(scimSyncEventQuerySchema, request.query);
      return admin.listScimSyncEventsAsync(request.params.id, {
        limit,
        ...(cursor === undefined ? {} : { cursor }),
        ...(outcome === undefined ? {} : { outcome }),
      });
    });
  };
}
