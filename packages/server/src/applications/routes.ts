import {
  applicationAccessCheckQuerySchema,
  applicationAssignmentPathSchema,
  applicationPathSchema,
  createApplicationAssignmentBodySchema,
  organizationPathSchema,
  setApplicationAccessModeBodySchema,
  userPathSchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import type { ApplicationAccessAdmin } from './access-admin.js';
import { operatorActor, pageRequest } from '../http/operator-request.js';

/**
 * The application-access routes of the operator API (docs/reference/application-access.md), registered at
 * `/svc/admin/auth/api` behind the operator guard: parse (path, query and body through contract schemas),
 * call, answer.
 */
export function applicationAccessRoutes(deps: { access: ApplicationAccessAdmin }): FastifyPluginAsync {
  const { access } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/applications/:applicationId/assignments', async (request) =>
      access.listAssignments(parseParams(applicationPathSchema, request.params).applicationId),
    );

    app.post('/applications/:applicationId/access-mode', async (request) => {
      const { applicationId } = parseParams(applicationPathSchema, request.params);
      const { mode } = parseBody(setApplicationAccessModeBodySchema, request.body);
      return access.setMode(applicationId, mode, operatorActor(request));
    });

    app.post('/applications/:applicationId/assignments', async (request, reply) => {
      const { applicationId } = parseParams(applicationPathSchema, request.params);
      const body = parseBody(createApplicationAssignmentBodySchema, request.body);
      return reply.code(201).send(await access.createAssignment(applicationId, body, operatorActor(request)));
    });

    app.delete('/applications/:applicationId/assignments/:assignmentId', async (request, reply) => {
      const { applicationId, assignmentId } = parseParams(applicationAssignmentPathSchema, request.params);
      await access.deleteAssignment(applicationId, assignmentId, operatorActor(request));
      return reply.code(204).send();
    });

    app.get('/applications/:applicationId/access/check', async (request) =>
      access.check(
        parseParams(applicationPathSchema, request.params).applicationId,
        parseQuery(applicationAccessCheckQuerySchema, request.query),
      ),
    );

    app.get('/organizations/:organizationId/applications', async (request) =>
      access.organizationApplications(
        parseParams(organizationPathSchema, request.params).organizationId,
        pageRequest(request.query),
      ),
    );

    app.get('/users/:userId/applications', async (request) =>
      access.userApplications(parseParams(userPathSchema, request.params).userId, pageRequest(request.query)),
    );
  };
}
