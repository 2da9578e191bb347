import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { logIfUnexpected, mapError } from '../http/errors.js';
import { acceptJsonBodies } from '../http/json-body.js';
import { ScimAuthError } from './bearer-auth.js';
import { ScimError } from './errors.js';
import { parseScimQuery } from './query.js';
import type { ScimListQuery, ScimServiceProvider } from './service-provider.js';
import type { ScimConnectionRecord } from './repository.js';
import { ERROR_SCHEMA } from './schema-names.js';

const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

type ById = { Params: { id: string } };

/**
 * SCIM bodies may be larger than Svc's other bodies: a group of MAX_GROUP_MEMBERS members (a PUT or a
 * replace of the whole list), each with its display name, is about 1.5 MB. Only an authenticated
 * connection gets this far (the token is checked before the body is read).
 */
export const SCIM_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

/** RFC 7644 §3.12: the SCIM error body, with `Retry-After` for a refused (429) or unavailable (503) request. */
function sendScimError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof ScimError) {
    if (error instanceof ScimAuthError && error.retryAfterSeconds !== null) {
      reply.header('retry-after', String(error.retryAfterSeconds));
    }
    if (error.status === 401) reply.header('www-authenticate', 'Bearer');
    return send(reply, error.status, error.message, error.scimType);
  }
  const mapped = mapError(error);
  logIfUnexpected(request, error, mapped);
  if (mapped.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.retryAfterSeconds));
  // A body that is not JSON is RFC 7644's invalidSyntax.
  const syntax =
    (error as Partial<FastifyError>).code?.startsWith('FST_ERR_CTP_') === true && mapped.status === 400;
  return send(reply, mapped.status, mapped.message, syntax ? 'invalidSyntax' : null);
}

function send(reply: FastifyReply, status: number, detail: string, scimType: string | null): FastifyReply {
  return reply
    .code(status)
    .header('content-type', SCIM_CONTENT_TYPE)
    .header('cache-control', 'no-store')
    .send({
      schemas: [ERROR_SCHEMA],
      status: String(status),
      ...(scimType === null ? {} : { scimType }),
      detail,
    });
}

/**
 * The SCIM 2.0 service provider under `/svc/scim/v2` (docs/reference/scim.md "The service provider"): every
 * route authenticates the bearer token to its connection first (onRequest, before the body is read), bodies
 * are `application/scim+json` or `application/json`, answers are `application/scim+json`, and every
 * error is the SCIM error schema. Thin: it reads the request and hands it to the service provider.
 */
export function scimRoutes(deps: { provider: ScimServiceProvider }): FastifyPluginAsync {
  const { provider } = deps;
  return async (app) => {
    app.addHook('onRoute', (route) => {
      route.bodyLimit = SCIM_BODY_LIMIT_BYTES;
    });
    const connections = new WeakMap<FastifyRequest, ScimConnectionRecord>();
    const query = (request: FastifyRequest): ScimListQuery => parseScimQuery(request.query);
    const connectionOf = (request: FastifyRequest): ScimConnectionRecord => {
      const connection = connections.get(request);
      if (connection === undefined) throw new ScimError(401, 'The request is not authenticated.');
      return connection;
    };
    // Providers send a JSON content type on GET and DELETE too, without a body: empty is no body.
    acceptJsonBodies(app, {
      mediaTypes: ['application/json', 'application/scim+json'],
      blankIsNoBody: true,
      tooDeep: (message) => new ScimError(400, message, 'invalidSyntax'),
    });
    app.setErrorHandler(sendScimError);
    app.setNotFoundHandler((_request, reply) => send(reply, 404, 'Not found.', null));
    app.addHook('onRequest', async (request) => {
      connections.set(request, await provider.authenticate(request.headers.authorization, request.ip));
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('cache-control', 'no-store');
      if (payload !== undefined && payload !== null && reply.statusCode !== 204)
        reply.header('content-type', SCIM_CONTENT_TYPE);
      return payload;
    });

    app.get('/ServiceProviderConfig', async () => provider.serviceProviderConfig());
    app.get('/ResourceTypes', async () => provider.resourceTypes());
    app.get<ById>('/ResourceTypes/:id', async (request) => provider.resourceType(request.params.id));
    app.get('/Schemas', async () => provider.schemas());
    app.get<ById>('/Schemas/:id', async (request) => provider.schema(request.params.id));

    app.get('/Users', async (request) => provider.listUsers(connectionOf(request), query(request)));
    app.post('/Users', async (request, reply) => {
      const created = await provider.createUser(connectionOf(request), request.body, query(request));
      return reply
        .code(201)
        .header('location', `${provider.baseUrl}/Users/${String(created.id)}`)
        .send(created);
    });
    app.get<ById>('/Users/:id', async (request) =>
      provider.getUser(connectionOf(request), request.params.id, query(request)),
    );
    app.put<ById>('/Users/:id', async (request) =>
      provider.replaceUser(connectionOf(request), request.params.id, request.body, query(request)),
    );
    app.patch<ById>('/Users/:id', async (request) =>
      provider.patchUser(connectionOf(request), request.params.id, request.body, query(request)),
    );
    app.delete<ById>('/Users/:id', async (request, reply) => {
      await provider.deleteUser(connectionOf(request), request.params.id);
      return reply.code(204).send();
    });

    app.get('/Groups', async (request) => provider.listGroups(connectionOf(request), query(request)));
    app.post('/Groups', async (request, reply) => {
      const created = await provider.createGroup(connectionOf(request), request.body, query(request));
      return reply
        .code(201)
        .header('location', `${provider.baseUrl}/Groups/${String(created.id)}`)
        .send(created);
    });
    app.get<ById>('/Groups/:id', async (request) =>
      provider.getGroup(connectionOf(request), request.params.id, query(request)),
    );
    app.put<ById>('/Groups/:id', async (request) =>
      provider.replaceGroup(connectionOf(request), request.params.id, request.body, query(request)),
    );
    app.patch<ById>('/Groups/:id', async (request, reply) => {
      const patched = await provider.patchGroup(
        connectionOf(request),
        request.params.id,
        request.body,
        query(request),
      );
      return patched === undefined ? reply.code(204).send() : patched;
    });
    app.delete<ById>('/Groups/:id', async (request, reply) => {
      await provider.deleteGroup(connectionOf(request), request.params.id);
      return reply.code(204).send();
    });
  };
}
