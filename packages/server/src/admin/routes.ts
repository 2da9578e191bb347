import {
  clientListQuerySchema,
  clientPathSchema,
  createClientBodySchema,
  createMembershipBodySchema,
  createOrganizationBodySchema,
  createScopeDisplayNameBodySchema,
  createUserBodySchema,
  membershipListQuerySchema,
  membershipPathSchema,
  organizationListQuerySchema,
  organizationMfaPolicyPathSchema,
  organizationPathSchema,
  scopeDisplayNamePathSchema,
  securitySettingsUpdateBodySchema,
  sessionListQuerySchema,
  svcAdminSessionRevocationRequestSchema,
  svcMfaSettingsSchema,
  svcOrganizationMfaPolicySchema,
  svcUserGrantPathSchema,
  svcUserIdentityPathSchema,
  updateClientBodySchema,
  updateMembershipBodySchema,
  updateOrganizationBodySchema,
  updateScopeDisplayNameBodySchema,
  updateUserBodySchema,
  userListQuerySchema,
  userPathSchema,
} from '@svc/contract';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAdminDirectory } from '../app/facades/svc-admin-directory.js';
import type { SvcAdminRecords } from '../app/facades/svc-admin-records.js';
import type { SvcAdminScopeDisplayNames } from '../app/facades/svc-admin-scope-display-names.js';
import type { SvcAdminSessions } from '../app/facades/svc-admin-sessions.js';
import type { SvcAdminSettings } from '../app/facades/svc-admin-settings.js';
import type { SvcAdminUserGrants } from '../app/facades/svc-admin-user-grants.js';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor, pageRequest } from '../http/operator-request.js';

/** The operator API's groups these routes call. */
export type AdminApiOperations = Operations<SvcAdminDirectory> &
  Operations<SvcAdminRecords> &
  Operations<SvcAdminUserGrants> &
  Operations<SvcAdminSettings> &
  Operations<SvcAdminSessions> &
  Operations<SvcAdminScopeDisplayNames>;

/**
 * The operator API (docs/reference/operator-api.md) for organizations, users, memberships,
 * clients (with the record routes of docs/reference/organizations.md "Record updates"), users' consent
 * grants, scope display names, token sessions (list, revocation preview and revocation) and security
 * settings. The app registers it at `/svc/admin/auth/api` behind the operator guard; this plugin only parses
 * (contract schemas, field names case-insensitive), calls the facade and answers. Errors are
 * `{ error, message, details? }` with 400/404/409, never a 5xx for bad input.
 *
 * Lists take `limit` (1-200, default 50) and `cursor`, and answer `{ data, nextCursor }`, newest first.
 */
export function adminApiRoutes(deps: { admin: AdminApiOperations }): FastifyPluginAsync {
  const { admin } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    // Answers carry personal data and, once, client secrets: no cache may keep them.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/organizations', async (request) =>
      admin.listOrganizationsAsync(parseQuery(organizationListQuerySchema, request.query)),
    );

    app.post('/organizations', async (request, reply) => {
      const body = parseBody(createOrganizationBodySchema, request.body);
      return reply.code(201).send(await admin.createOrganizationAsync(body, operatorActor(request)));
    });

    app.get('/users', async (request) =>
      admin.listUsersAsync(parseQuery(userListQuerySchema, request.query)),
    );

    app.post('/users', async (request, reply) => {
      const body = parseBody(createUserBodySchema, request.body);
      return reply.code(201).send(await admin.createUserAsync(body, operatorActor(request)));
    });

    app.post('/memberships', async (request, reply) => {
      const body = parseBody(createMembershipBodySchema, request.body);
      return reply.code(201).send(await admin.createMembershipAsync(body, operatorActor(request)));
    });

    app.get('/clients', async (request) =>
      admin.listClientsAsync(parseQuery(clientListQuerySchema, request.query)),
    );

    app.post('/clients', async (request, reply) => {
      const body = parseBody(createClientBodySchema, request.body);
      return reply.code(201).send(await admin.createClientAsync(body, operatorActor(request)));
    });

    app.get('/users/:userId/grants', async (request) =>
      admin.listUserGrantsAsync(parseParams(userPathSchema, request.params).userId),
    );

    app.post('/users/:userId/grants/:grantId/revoke', async (request) => {
      const { userId, grantId } = parseParams(svcUserGrantPathSchema, request.params);
      return admin.revokeUserGrantAsync(userId, grantId, operatorActor(request));
    });

    app.get('/users/:userId/identities', async (request) =>
      admin.listUserIdentitiesAsync(parseParams(userPathSchema, request.params).userId),
    );

    app.delete('/users/:userId/identities/:identityId', async (request, reply) => {
      const { userId, identityId } = parseParams(svcUserIdentityPathSchema, request.params);
      await admin.removeUserIdentityAsync(userId, identityId, operatorActor(request));
      return reply.code(204).send();
    });

    registerRecordRoutes(app, admin);
    registerScopeDisplayNameRoutes(app, admin);

    app.get('/sessions', async (request) =>
      admin.listSessionsAsync(parseQuery(sessionListQuerySchema, request.query)),
    );

    app.post('/sessions/revocation/preview', async (request) =>
      admin.previewSessionRevocationAsync(parseBody(svcAdminSessionRevocationRequestSchema, request.body)),
    );

    app.post('/sessions/revocation', async (request) =>
      admin.revokeSessionsAsync(
        parseBody(svcAdminSessionRevocationRequestSchema, request.body),
        operatorActor(request),
      ),
    );

    app.get('/settings/security', async () => admin.getSecuritySettingsAsync());

    app.put('/settings/security', async (request) => {
      const body = parseBody(securitySettingsUpdateBodySchema, request.body);
      return admin.updateSecuritySettingsAsync(body, operatorActor(request));
    });

    app.get('/settings/mfa', async () => admin.getMfaSettingsAsync());

    app.put('/settings/mfa', async (request) =>
      admin.updateMfaSettingsAsync(parseBody(svcMfaSettingsSchema, request.body), operatorActor(request)),
    );

    app.get('/organizations/:organizationId/mfa-policy', async (request) =>
      admin.getOrganizationMfaPolicyAsync(
        parseParams(organizationMfaPolicyPathSchema, request.params).organizationId,
      ),
    );

    app.put('/organizations/:organizationId/mfa-policy', async (request) => {
      const { organizationId } = parseParams(organizationMfaPolicyPathSchema, request.params);
      return admin.updateOrganizationMfaPolicyAsync(
        organizationId,
        parseBody(svcOrganizationMfaPolicySchema, request.body),
        operatorActor(request),
      );
    });
  };
}

/**
 * docs/reference/organizations.md "Record updates": read and PATCH users, organizations, memberships and
 * clients (`active: false` deactivates, `true` reactivates), list memberships (and read one by id), rotate a
 * client secret. PATCH bodies name only what changes; the answer is the record as it is now.
 */
function registerRecordRoutes(app: FastifyInstance, admin: Operations<SvcAdminRecords>): void {
  app.get('/users/:userId', async (request) =>
    admin.getUserAsync(parseParams(userPathSchema, request.params).userId),
  );
  app.patch('/users/:userId', async (request) =>
    admin.updateUserAsync(
      parseParams(userPathSchema, request.params).userId,
      parseBody(updateUserBodySchema, request.body),
      operatorActor(request),
    ),
  );
  app.get('/users/:userId/memberships', async (request) =>
    admin.listUserMembershipsAsync(
      parseParams(userPathSchema, request.params).userId,
      pageRequest(request.query),
    ),
  );

  app.get('/organizations/:organizationId', async (request) =>
    admin.getOrganizationAsync(parseParams(organizationPathSchema, request.params).organizationId),
  );
  app.patch('/organizations/:organizationId', async (request) =>
    admin.updateOrganizationAsync(
      parseParams(organizationPathSchema, request.params).organizationId,
      parseBody(updateOrganizationBodySchema, request.body),
      operatorActor(request),
    ),
  );
  app.get('/organizations/:organizationId/memberships', async (request) =>
    admin.listOrganizationMembershipsAsync(
      parseParams(organizationPathSchema, request.params).organizationId,
      parseQuery(membershipListQuerySchema, request.query),
    ),
  );

  app.get('/memberships/:membershipId', async (request) =>
    admin.getMembershipAsync(parseParams(membershipPathSchema, request.params).membershipId),
  );
  app.patch('/memberships/:membershipId', async (request) =>
    admin.updateMembershipAsync(
      parseParams(membershipPathSchema, request.params).membershipId,
      parseBody(updateMembershipBodySchema, request.body),
      operatorActor(request),
    ),
  );

  app.get('/clients/:clientId', async (request) =>
    admin.getClientAsync(parseParams(clientPathSchema, request.params).clientId),
  );
  app.patch('/clients/:clientId', async (request) =>
    admin.updateClientAsync(
      parseParams(clientPathSchema, request.params).clientId,
      parseBody(updateClientBodySchema, request.body),
      operatorActor(request),
    ),
  );
  // The new secret is in this answer once; the route-wide no-store header keeps caches from holding it.
  app.post('/clients/:clientId/rotate-secret', async (request) =>
    admin.rotateClientSecretAsync(
      parseParams(clientPathSchema, request.params).clientId,
      operatorActor(request),
    ),
  );
}

/**
 * docs/reference/tokens-and-sessions.md, scope display names: `GET, POST /scope-display-names` (`{ data }`;
 * POST answers 201) and `PUT, DELETE /scope-display-names/{id}` (DELETE answers `{ deleted: true }`; 400 for
 * a code-owned entry).
 */
function registerScopeDisplayNameRoutes(
  app: FastifyInstance,
  admin: Operations<SvcAdminScopeDisplayNames>,
): void {
  app.get('/scope-display-names', async () => admin.listScopeDisplayNamesAsync());
  app.post('/scope-display-names', async (request, reply) => {
    const body = parseBody(createScopeDisplayNameBodySchema, request.body);
    return reply.code(201).send(await admin.createScopeDisplayNameAsync(body, operatorActor(request)));
  });
  app.put('/scope-display-names/:id', async (request) =>
    admin.updateScopeDisplayNameAsync(
      parseParams(scopeDisplayNamePathSchema, request.params).id,
      parseBody(updateScopeDisplayNameBodySchema, request.body),
      operatorActor(request),
    ),
  );
  app.delete('/scope-display-names/:id', async (request) =>
    admin.deleteScopeDisplayNameAsync(
      parseParams(scopeDisplayNamePathSchema, request.params).id,
      operatorActor(request),
    ),
  );
}
