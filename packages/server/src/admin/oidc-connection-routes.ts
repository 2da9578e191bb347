import {
  createOidcConnectionBodySchema,
  oidcConnectionPathSchema,
  pageQuerySchema,
  updateOidcConnectionBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminOidcConnections } from '../app/facades/svc-admin-oidc-connections.js';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';

/**
 * The operator routes of OIDC / social provider connections (docs/reference/federation.md "OIDC and
 * social connections"): `GET/POST /oidc-connections`, `GET/PUT/DELETE /oidc-connections/{id}`, and
 * `POST /oidc-connections/{id}/enable` and `/disable` like the SAML and SCIM connections. The app
 * registers this plugin inside the operator API at `/svc/admin/auth/api`, behind the operator guard;
 * it parses with the contract schemas (top-level field names case-insensitive) and calls the facade.
 * No answer carries a secret.
 */
export function oidcConnectionAdminRoutes(deps: {
  admin: Operations<SvcAdminOidcConnections>;
}): FastifyPluginAsync {
  const { admin } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/oidc-connections', async (request) => {
      const { limit, cursor } = parseQuery(pageQuerySchema, request.query);
      return admin.listOidcConnectionsAsync(cursor === undefined ? { limit } : { limit, cursor });
    });

    app.post('/oidc-connections', async (request, reply) => {
      const body = parseBody(createOidcConnectionBodySchema, request.body);
      return reply.code(201).send(await admin.createOidcConnectionAsync(body, operatorActor(request)));
    });

    app.get('/oidc-connections/:id', async (request) =>
      admin.getOidcConnectionAsync(parseParams(oidcConnectionPathSchema, request.params).id),
    );

    app.put('/oidc-connections/:id', async (request) =>
      admin.updateOidcConnectionAsync(
        parseParams(oidcConnectionPathSchema, request.params).id,
        parseBody(updateOidcConnectionBodySchema, request.body),
        operatorActor(request),
      ),
    );

    app.delete('/oidc-connections/:id', async (request) =>
      admin.deleteOidcConnectionAsync(
        parseParams(oidcConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );

    app.post('/oidc-connections/:id/enable', async (request) =>
      admin.enableOidcConnectionAsync(
        parseParams(oidcConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );

    app.post('/oidc-connections/:id/disable', async (request) =>
      admin.disableOidcConnectionAsync(
        parseParams(oidcConnectionPathSchema, request.params).id,
        operatorActor(request),
      ),
    );
  };
}
