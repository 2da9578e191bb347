import {
  applicationAccessCheckQuerySchema,
  applicationAssignmentPathSchema,
  applicationPathSchema,
  createApplicationAssignmentBodySchema,
  recordPathSchema,
  setApplicationAccessModeBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { parseBody, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { validate } from '../kernel/validation.js';
import type { ApplicationAccessAdmin } from './access-admin.js';
import { operatorActor, pageRequest } from '../http/operator-request.js';

const applicationPath = (params: unknown) => validate(applicationPathSchema, params, 'path', '(path)');
const recordPath = (id: string) => validate(recordPathSchema, { id }, 'path', '(path)').id;

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
      access.listAssignments(applicationPath(request.params).applicationId),
    );

    app.post('/applications/:applicationId/access-mode', async (request) => {
      const { applicationId } = applicationPath(request.params);
      const { mode } = parseBody(setApplicationAccessModeBodySchema, request.body);
      return access.setMode(applicationId, mode, operatorActor(request));
    });

    app.post('/applications/:applicationId/assignments', async (request, reply) => {
      const { applicationId } = applicationPath(request.params);
      const body = parseBody(createApplicationAssignmentBodySchema, request.body);
      return reply.code(201).send(await access.createAssignment(applicationId, body, operatorActor(request)));
    });

    app.delete('/applications/:applicationId/assignments/:assignmentId', async (request, reply) => {
      const { applicationId, assignmentId } = validate(
        applicationAssignmentPathSchema,
        request.params,
        'path',
        '(path)',
      );
      await access.deleteAssignment(applicationId, assignmentId, operatorActor(request));
      return reply.code(204).send();
    });

    app.get('/applications/:applicationId/access/check', async (request) =>
      access.check(
        applicationPath(request.params).applicationId,
        parseQuery(applicationAccessCheckQuerySchema, request.query),
      ),
    );

    app.get<{ Params: { organizationId: string } }>(
      '/organizations/:organizationId/applications',
      async (request) =>
        access.organizationApplications(
          recordPath(request.params.organizationId),
          pageRequest(request.query),
        ),
    );

    app.get<{ Params: { userId: string } }>('/users/:userId/applications', async (request) =>
      access.userApplications(recordPath(request.params.userId), pageRequest(request.query)),
    );
  };
}
