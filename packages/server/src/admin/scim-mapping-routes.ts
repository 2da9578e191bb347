import {
  createScimMappingBodySchema,
  pageQuerySchema,
  scimConnectionPathSchema,
  scimMappingPathSchema,
  updateScimMappingBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminScimMappings } from '../app/facades/svc-admin-scim-mappings.js';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';

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

    app.get('/scim-connections/:id/mappings', async (request) => {
      const { limit, cursor } = parseQuery(pageQuerySchema, request.query);
      return admin.listScimMappingsAsync(
        parseParams(scimConnectionPathSchema, request.params).id,
        cursor === undefined ? { limit } : { limit, cursor },
      );
    });

    app.post('/scim-connections/:id/mappings', async (request, reply) => {
      const created = await admin.createScimMappingAsync(
        parseParams(scimConnectionPathSchema, request.params).id,
        parseBody(createScimMappingBodySchema, request.body),
        operatorActor(request),
      );
      return reply.code(201).send(created);
    });

    app.get('/scim-mappings/:id', async (request) =>
      admin.getScimMappingAsync(parseParams(scimMappingPathSchema, request.params).id),
    );

    app.put('/scim-mappings/:id', async (request) =>
      admin.updateScimMappingAsync(
        parseParams(scimMappingPathSchema, request.params).id,
        parseBody(updateScimMappingBodySchema, request.body),
        operatorActor(request),
      ),
    );

    app.post('/scim-mappings/:id/enable', async (request) =>
      admin.enableScimMappingAsync(
        parseParams(scimMappingPathSchema, request.params).id,
        operatorActor(request),
      ),
    );

    app.post('/scim-mappings/:id/disable', async (request) =>
      admin.disableScimMappingAsync(
        parseParams(scimMappingPathSchema, request.params).id,
        operatorActor(request),
      ),
    );

    app.delete('/scim-mappings/:id', async (request, reply) => {
      await admin.deleteScimMappingAsync(
        parseParams(scimMappingPathSchema, request.params).id,
        operatorActor(request),
      );
      return reply.code(204).send();
    });
  };
}
