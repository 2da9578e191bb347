import {
  createFgaGrantBodySchema,
  createFgaGroupBodySchema,
  createFgaKeyedBodySchema,
  createFgaResourceBodySchema,
  createFgaRoleBodySchema,
  createFgaSubjectBodySchema,
  fgaAccessTestBodySchema,
  fgaGrantQuerySchema,
  fgaGroupMemberPathSchema,
  fgaResourceQuerySchema,
  fgaSubjectQuerySchema,
  pageQuerySchema,
  recordPathSchema,
  renameFgaBodySchema,
  updateFgaResourceBodySchema,
  updateFgaRoleBodySchema,
} from '@svc/contract';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { parseBody, parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { operatorActor } from '../http/operator-request.js';
import type { FgaAdmin } from './fga-admin.js';
import type { FgaDefinitionKind } from './repository.js';
import {
  toDecisionView,
  toGrantView,
  toGroupView,
  toKeyedView,
  toMemberView,
  toResourceDetailView,
  toResourceView,
  toRoleView,
  toSubjectRecordView,
  toSubjectView,
} from './views.js';

const GROUPS = ['group'] as const;
const ACCOUNTS = ['service_account', 'agent'] as const;

const idOf = (request: FastifyRequest): string => parseParams(recordPathSchema, request.params).id;
const page = (query: { limit: number; cursor?: string | undefined }) => ({
  limit: query.limit,
  cursor: query.cursor,
});

/**
 * The FGA operator API (docs/reference/fga.md "Routes"); the app
 * registers it at `/svc/admin/fga/api` behind the operator guard. Every record an operator creates can
 * be read, changed and deleted here, and every change is an `fga.*` audit event. Lists take `limit`
 * and `cursor` and answer `{ data, nextCursor }`, newest first; deletes answer 204. Bad input is a 400
 * naming the field, an unknown id in the path a 404, a rule of the model (in use, children) a 409.
 */
export function fgaAdminRoutes(deps: { fga: FgaAdmin }): FastifyPluginAsync {
  const { fga } = deps;
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    registerDefinitionRoutes(app, fga, 'resource-types', 'resource_type');
    registerDefinitionRoutes(app, fga, 'permissions', 'permission');
    registerDefinitionRoutes(app, fga, 'roles', 'role');
    registerResourceRoutes(app, fga);
    registerSubjectRoutes(app, fga);

    app.get('/grants', async (request) => {
      const { limit, cursor, ...filter } = parseQuery(fgaGrantQuerySchema, request.query);
      const listed = await fga.grants.list(filter, page({ limit, cursor }));
      return { data: listed.data.map(toGrantView), nextCursor: listed.nextCursor };
    });
    app.post('/grants', async (request, reply) => {
      const body = parseBody(createFgaGrantBodySchema, request.body);
      const { grant, created } = await fga.grants.create(body, operatorActor(request));
      return reply.code(created ? 201 : 200).send(toGrantView(grant));
    });
    app.get('/grants/:id', async (request) => toGrantView(await fga.grants.get(idOf(request))));
    app.delete('/grants/:id', async (request, reply) => {
      await fga.grants.revoke(idOf(request), operatorActor(request));
      return reply.code(204).send();
    });

    app.post('/access-test', async (request) =>
      toDecisionView(await fga.testAccess(parseBody(fgaAccessTestBodySchema, request.body))),
    );
  };
}

/** GET/POST /{path}, GET/PATCH/DELETE /{path}/{id} of resource types, permissions or roles. */
function registerDefinitionRoutes(
  app: FastifyInstance,
  fga: FgaAdmin,
  path: string,
  kind: FgaDefinitionKind,
): void {
  const view = kind === 'role' ? toRoleView : toKeyedView;
  app.get(`/${path}`, async (request) => {
    const listed = await fga.definitions.list(kind, page(parseQuery(pageQuerySchema, request.query)));
    return { data: listed.data.map(view), nextCursor: listed.nextCursor };
  });
  app.post(`/${path}`, async (request, reply) => {
    const body = parseBody(
      kind === 'role' ? createFgaRoleBodySchema : createFgaKeyedBodySchema,
      request.body,
    );
    return reply.code(201).send(view(await fga.definitions.create(kind, body, operatorActor(request))));
  });
  app.get(`/${path}/:id`, async (request) => view(await fga.definitions.get(kind, idOf(request))));
  app.patch(`/${path}/:id`, async (request) => {
    const body = parseBody(kind === 'role' ? updateFgaRoleBodySchema : renameFgaBodySchema, request.body);
    return view(await fga.definitions.update(kind, idOf(request), body, operatorActor(request)));
  });
  app.delete(`/${path}/:id`, async (request, reply) => {
    await fga.definitions.delete(kind, idOf(request), operatorActor(request));
    return reply.code(204).send();
  });
}

/** The resource tree: GET /resources lists it flat (each with its parentId), or one level of it. */
function registerResourceRoutes(app: FastifyInstance, fga: FgaAdmin): void {
  app.get('/resources', async (request) => {
    const { limit, cursor, parentId, typeId } = parseQuery(fgaResourceQuerySchema, request.query);
    const filter = {
      ...(parentId === undefined ? {} : { parentId: parentId === '' ? null : parentId }),
      ...(typeId === undefined ? {} : { typeId }),
    };
    const listed = await fga.resources.list(filter, page({ limit, cursor }));
    return { data: listed.data.map(toResourceView), nextCursor: listed.nextCursor };
  });
  app.post('/resources', async (request, reply) => {
    const body = parseBody(createFgaResourceBodySchema, request.body);
    return reply.code(201).send(toResourceView(await fga.resources.create(body, operatorActor(request))));
  });
  app.get('/resources/:id', async (request) => toResourceDetailView(await fga.resources.get(idOf(request))));
  app.patch('/resources/:id', async (request) => {
    const body = parseBody(updateFgaResourceBodySchema, request.body);
    return toResourceView(await fga.resources.update(idOf(request), body, operatorActor(request)));
  });
  app.delete('/resources/:id', async (request, reply) => {
    await fga.resources.delete(idOf(request), operatorActor(request));
    return reply.code(204).send();
  });
}

/** Groups with their members, and the service accounts and agents of /subjects. */
function registerSubjectRoutes(app: FastifyInstance, fga: FgaAdmin): void {
  app.get('/subjects', async (request) => {
    const { limit, cursor, type } = parseQuery(fgaSubjectQuerySchema, request.query);
    const listed = await fga.subjects.list(type, page({ limit, cursor }));
    return { data: listed.data.map(toSubjectView), nextCursor: listed.nextCursor };
  });
  app.post('/subjects', async (request, reply) => {
    const body = parseBody(createFgaSubjectBodySchema, request.body);
    return reply.code(201).send(toSubjectRecordView(await fga.subjects.create(body, operatorActor(request))));
  });
  // A service account's or agent's own record; users and groups have theirs elsewhere.
  app.get('/subjects/:id', async (request) =>
    toSubjectRecordView(await fga.subjects.get(ACCOUNTS, idOf(request))),
  );
  app.patch('/subjects/:id', async (request) => {
    const { name } = parseBody(renameFgaBodySchema, request.body);
    return toSubjectRecordView(
      await fga.subjects.rename(ACCOUNTS, idOf(request), name, operatorActor(request)),
    );
  });
  app.delete('/subjects/:id', async (request, reply) => {
    await fga.subjects.delete(ACCOUNTS, idOf(request), operatorActor(request));
    return reply.code(204).send();
  });

  app.get('/groups', async (request) => {
    const listed = await fga.subjects.list('group', page(parseQuery(pageQuerySchema, request.query)));
    return { data: listed.data.map(toSubjectView), nextCursor: listed.nextCursor };
  });
  app.post('/groups', async (request, reply) => {
    const body = parseBody(createFgaGroupBodySchema, request.body);
    const group = await fga.subjects.create({ type: 'group', ...body }, operatorActor(request));
    return reply.code(201).send(toGroupView(group));
  });
  app.get('/groups/:id', async (request) => toGroupView(await fga.subjects.get(GROUPS, idOf(request))));
  app.patch('/groups/:id', async (request) => {
    const { name } = parseBody(renameFgaBodySchema, request.body);
    return toGroupView(await fga.subjects.rename(GROUPS, idOf(request), name, operatorActor(request)));
  });
  app.delete('/groups/:id', async (request, reply) => {
    await fga.subjects.delete(GROUPS, idOf(request), operatorActor(request));
    return reply.code(204).send();
  });
  app.get('/groups/:id/members', async (request) => {
    const listed = await fga.subjects.listMembers(
      idOf(request),
      page(parseQuery(pageQuerySchema, request.query)),
    );
    return { data: listed.data.map(toMemberView), nextCursor: listed.nextCursor };
  });
  app.post('/groups/:id/members/:userId', async (request, reply) => {
    const { id, userId } = parseParams(fgaGroupMemberPathSchema, request.params);
    return reply
      .code(201)
      .send(toMemberView(await fga.subjects.addMember(id, userId, operatorActor(request))));
  });
  app.delete('/groups/:id/members/:userId', async (request, reply) => {
    const { id, userId } = parseParams(fgaGroupMemberPathSchema, request.params);
    await fga.subjects.removeMember(id, userId, operatorActor(request));
    return reply.code(204).send();
  });
}
