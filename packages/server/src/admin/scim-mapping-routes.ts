import { createScimMappingBodySchema, pageQuerySchema, updateScimMappingBodySchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminScimMappings } from '../app/facades/svc-admin-scim-mappings.js';
import { parseBody, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';

type ById = { Params: { id: string } };

/**
 * The operator routes of SCIM group mapping rules (docs/reference/scim.md "Mapping rules"):
 * `GET/POST /scim-connections/{id}/mappings` (POST answers 201), `PUT /scim-mappings/{id}`,
 * `POST /scim-mappings/{id}/enable`, `/disable`, and beside them `GET /scim-mappings/{id}` and
 * `DELETE /scim-mappings/{id}` (204). A rule outside the grant boundary is 400 with the boundary code as `error`
 * (docs/reference/scim.md "Mapping rules"). Behind the operator guard.
 */
export function scimMappingAdminRoutes(deps: {
  admin: Operations<SvcAdminScimMappings>;
}): FastifyPluginAsync {
  const { admin } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get<ById>('/scim-connections/:id/mappings', async (request) => {
      const { limit, cursor } = parseQuery(pageQuerySchema, request.query);
      return admin.listScimMappingsAsync(
        request.params.id,
        cursor === undefined ? { limit } : { limit, cursor },
      );
    });

    app.post<ById>('/scim-connections/:id/mappings', async (request, reply) => {
      const created = await admin.createScimMappingAsync(
        request.params.id,
        parseBody(createScimMappingBodySchema, request.body),
        operatorActor(request),
      );
      return reply.code(201).send(created);
    });

    app.get<ById>('/scim-mappings/:id', async (request) => admin.getScimMappingAsync(request.params.id));

    app.put<ById>('/scim-mappings/:id', async (request) =>
      admin.updateScimMappingAsync(
        request.params.id,
        parseBody(updateScimMappingBodySchema, request.body),
        operatorActor(request),
      ),
    );

    app.post<ById>('/scim-mappings/:id/enable', async (request) =>
      admin.enableScimMappingAsync(request.params.id, operatorActor(request)),
    );

    app.post<ById>('/scim-mappings/:id/disable', async (request) =>
      admin.disableScimMappingAsync(request.params.id, operatorActor(request)),
    );

    app.delete<ById>('/scim-mappings/:id', async (request, reply) => {
      await admin.deleteScimMappingAsync(request.params.id, operatorActor(request));
      return reply.code(204).send();
    });
  };
}
