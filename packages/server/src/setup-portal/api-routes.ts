import {
  createSsoConnectionBodySchema,
  importSsoPortalMetadataBodySchema,
  recordPathSchema,
  ssoConnectionPathSchema,
  startDomainVerificationBodySchema,
} from '@svc/contract';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { SessionCsrf } from '../kernel/session-csrf.js';
import type { PortalActor, PortalSetup } from '../federation/sso-portal/portal-setup.js';
import type { SsoPortalSessions } from '../federation/sso-portal/portal-sessions.js';
import { parseBody, parseParams } from '../http/body.js';
import { jsonErrorHandler, sendNotFound } from '../http/errors.js';
import { toIso } from '../kernel/clock.js';
import { portalActor, requirePortalCsrf } from './portal-request.js';

/** The header a script of the portal sends its antiforgery token in. */
export const PORTAL_CSRF_HEADER = 'x-svc-csrf';

export interface PortalApiDeps {
  readonly sessions: Pick<SsoPortalSessions, 'find'>;
  readonly setup: PortalSetup;
  readonly csrf: SessionCsrf;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * The portal API (docs/reference/federation.md "The portal API and page"), at
 * `/svc/admin/auth/sso-portal/api/setup`: `GET` (the organization, its connections with their SP details, its
 * domain claims, the last test sign-in, and the `csrfToken` to send as `x-svc-csrf`), `GET/POST
 * /sso-connections`, `GET /sso-connections/{id}`, `POST /sso-connections/{id}/metadata` (`{metadataXml}` or
 * `{metadataUrl}`), `/enable`, `/disable`, `GET/POST /domains`, `POST /domains/{id}/verify`. Only the portal
 * session's cookie authorizes it: without a live session every route answers the admin API's 404, before the
 * body is read; a POST without the session's token or from another origin is a 403.
 */
export function portalApiRoutes(deps: PortalApiDeps): FastifyPluginAsync {
  const { setup, csrf } = deps;
  const actors = new WeakMap<FastifyRequest, PortalActor>();
  const actorOf = (request: FastifyRequest): PortalActor => {
    const actor = actors.get(request);
    // The onRequest hook answered 404 already when there is none; this cannot be reached without one.
    if (actor === undefined) throw new Error('portal route without a portal session');
    return actor;
  };
  const connectionId = (request: FastifyRequest) => parseParams(ssoConnectionPathSchema, request.params).id;

  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    app.addHook('onRequest', async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const actor = await portalActor(request, deps.sessions);
      if (actor === undefined) return sendNotFound(reply);
      if (!SAFE_METHODS.has(request.method)) {
        requirePortalCsrf(csrf, request, actor, request.headers[PORTAL_CSRF_HEADER]);
      }
      actors.set(request, actor);
      return undefined;
    });

    app.get('/', async (request) => {
      const actor = actorOf(request);
      const overview = await setup.overview(actor);
      return {
        ...overview,
        sessionExpiresAt: toIso(overview.sessionExpiresAt),
        csrfToken: csrf.tokenFor(actor.session.id),
      };
    });

    app.get('/sso-connections', async (request) => ({ data: await setup.listConnections(actorOf(request)) }));

    app.post('/sso-connections', async (request, reply) => {
      const body = parseBody(createSsoConnectionBodySchema, request.body);
      return reply.code(201).send(await setup.createConnection(actorOf(request), body));
    });

    app.get('/sso-connections/:id', async (request) =>
      setup.getConnection(actorOf(request), connectionId(request)),
    );

    app.post('/sso-connections/:id/metadata', async (request) => {
      const body = parseBody(importSsoPortalMetadataBodySchema, request.body);
      return setup.importMetadata(actorOf(request), connectionId(request), body);
    });

    app.post('/sso-connections/:id/enable', async (request) =>
      setup.setEnabled(actorOf(request), connectionId(request), true),
    );

    app.post('/sso-connections/:id/disable', async (request) =>
      setup.setEnabled(actorOf(request), connectionId(request), false),
    );

    app.get('/domains', async (request) => ({ data: await setup.listDomains(actorOf(request)) }));

    app.post('/domains', async (request, reply) => {
      const { domain } = parseBody(startDomainVerificationBodySchema, request.body);
      return reply.code(201).send(await setup.startDomain(actorOf(request), domain));
    });

    app.post('/domains/:id/verify', async (request) =>
      setup.verifyDomain(actorOf(request), parseParams(recordPathSchema, request.params).id),
    );
  };
}
