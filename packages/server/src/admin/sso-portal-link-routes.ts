import {
  pageQuerySchema,
  ssoPortalLinkListQuerySchema,
  ssoPortalLinkPathSchema,
  ssoPortalOrganizationPathSchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminSsoPortal } from '../app/facades/svc-admin-sso-portal.js';
import { parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';

/**
 * The operator routes of SSO setup portal links (docs/reference/federation.md "Links"):
 * `POST /organizations/{organizationId}/sso-portal/sessions` → 201 {id, url, expiresAt} (the URL, with
 * its one-time token, only in this answer), `GET` the same path lists the links with their status,
 * `GET /sso-portal/sessions` lists every organization's (`?organizationId=` narrows them),
 * `GET /sso-portal/sessions/{id}` reads one and `POST /sso-portal/sessions/{id}/revoke` revokes one.
 * Registered inside the operator API at `/svc/admin/auth/api`, behind the operator guard.
 */
export function ssoPortalLinkAdminRoutes(deps: { admin: Operations<SvcAdminSsoPortal> }): FastifyPluginAsync {
  const { admin } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/organizations/:organizationId/sso-portal/sessions', async (request, reply) => {
      const created = await admin.createSsoPortalLinkAsync(
        parseParams(ssoPortalOrganizationPathSchema, request.params).organizationId,
        operatorActor(request),
      );
      return reply.code(201).send(created);
    });

    app.get('/organizations/:organizationId/sso-portal/sessions', async (request) => {
      const { limit, cursor } = parseQuery(pageQuerySchema, request.query);
      return admin.listSsoPortalLinksAsync(
        parseParams(ssoPortalOrganizationPathSchema, request.params).organizationId,
        cursor === undefined ? { limit } : { limit, cursor },
      );
    });

    app.get('/sso-portal/sessions', async (request) =>
      admin.listAllSsoPortalLinksAsync(parseQuery(ssoPortalLinkListQuerySchema, request.query)),
    );

    app.get('/sso-portal/sessions/:id', async (request) =>
      admin.getSsoPortalLinkAsync(parseParams(ssoPortalLinkPathSchema, request.params).id),
    );

    app.post('/sso-portal/sessions/:id/revoke', async (request) =>
      admin.revokeSsoPortalLinkAsync(
        parseParams(ssoPortalLinkPathSchema, request.params).id,
        operatorActor(request),
      ),
    );
  };
}
