import {
  createSsoConnectionBodySchema,
  importSsoPortalMetadataBodySchema,
  recordPathSchema,
  ssoConnectionPathSchema,
  startDomainVerificationBodySchema,
} from '@svc/contract';
import { z } from 'zod';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionCsrf } from '../kernel/session-csrf.js';
import type { PortalActor, PortalSetup } from '../federation/sso-portal/portal-setup.js';
import type { SsoPortalSessions } from '../federation/sso-portal/portal-sessions.js';
import { parseBody, parseParams } from '../http/body.js';
import { redirectAfterPost, sendPage } from '../http/pages/reply.js';
import type { Clock } from '../kernel/clock.js';
import { SvcError, SvcValidationError } from '../kernel/errors.js';
import { setPortalCookie } from './portal-cookie.js';
import { PortalCsrfError, portalActor, requirePortalCsrf } from './portal-request.js';
import { LINK_REFUSED, renderMessagePage, SESSION_ENDED } from './pages/message-page.js';
import { PORTAL_CSRF_FIELD, renderPortalPage } from './pages/portal-page.js';

export interface PortalPageDeps {
  /** The absolute portal base path (for example `/svc/admin/auth/sso-portal`). */
  readonly portalBase: string;
  /** The page's path under the portal base (`/setup`). */
  readonly pagePath: string;
  readonly publicOrigin: string;
  readonly sessions: Pick<SsoPortalSessions, 'exchange' | 'find'>;
  readonly setup: PortalSetup;
  readonly csrf: SessionCsrf;
  readonly clock: Clock;
}

/** What the page says after each form, by the `done` of the redirect back to it. */
const NOTICES = Object.freeze({
  created: 'The connection was added. Give your identity provider the values below, then save its metadata.',
  metadata: 'The metadata was saved and the connection is enabled. Try a test sign-in.',
  enabled: 'The connection is enabled.',
  disabled: 'The connection is disabled: nobody signs in through it until it is enabled again.',
  domain: 'The domain was added. Publish the DNS record below, then check it.',
  checked: 'The DNS record was checked.',
});
type Notice = keyof typeof NOTICES;

const startQuerySchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,200}$/) });
const pageQuerySchema = z.object({ done: z.enum(Object.keys(NOTICES) as [Notice, ...Notice[]]).optional() });

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && Object.hasOwn(body, name)
    ? (body as Record<string, unknown>)[name]
    : undefined;
}

const filled = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * The metadata of the form: an uploaded file wins over pasted text; or the URL to fetch it from. Neither,
 * or a URL beside the XML, is a 400 saying what to do.
 */
function metadataOf(body: unknown) {
  const file = field(body, 'metadataFile');
  const pasted = field(body, 'metadataXml');
  const url = field(body, 'metadataUrl');
  const metadataXml = filled(file) ? file : filled(pasted) ? pasted : undefined;
  if (metadataXml !== undefined && filled(url)) {
    throw new SvcValidationError(
      'Give the metadata one way: paste it, upload the file, or enter its URL (clear the others).',
      [{ path: 'metadataUrl', message: 'give metadataXml or metadataUrl, not both' }],
    );
  }
  if (metadataXml === undefined && !filled(url)) {
    throw new SvcValidationError(
      "Paste your identity provider's metadata, choose the metadata file, or enter the metadata URL.",
      [{ path: 'metadataXml', message: 'required' }],
    );
  }
  return parseBody(
    importSsoPortalMetadataBodySchema,
    metadataXml === undefined ? { metadataUrl: url } : { metadataXml },
  );
}

/**
 * The portal page and its forms, under the portal base: `GET /start?token=` exchanges a setup link once
 * for a portal session (cookie, then 303 to the page; a link that cannot be used gets a page saying to
 * ask for a new one), `GET /setup` shows the page, and each form posts under it and is redirected back
 * (post/redirect/get), or shows the page again with the reason it was refused. Without a live session
 * the page is a 404 saying the session ended.
 */
export function portalPageRoutes(deps: PortalPageDeps): FastifyPluginAsync {
  const { setup, csrf, portalBase } = deps;
  const pageUrl = `${portalBase}${deps.pagePath}`;
  const actors = new WeakMap<FastifyRequest, PortalActor>();

  const message = (reply: FastifyReply, content: { title: string; message: string }, status: number) =>
    sendPage(reply, renderMessagePage({ portalBase, ...content }), status);

  const showPage = async (
    reply: FastifyReply,
    actor: PortalActor,
    extra: { notice?: string; error?: string },
    status = 200,
  ) =>
    sendPage(
      reply,
      renderPortalPage({
        portalBase,
        pagePath: pageUrl,
        overview: await setup.overview(actor),
        csrfToken: csrf.tokenFor(actor.session.id),
        ...extra,
      }),
      status,
    );

  /** Runs a form's action: back to the page with a notice, or the page again with the refusal. */
  const action =
    <R extends { Params?: unknown }>(
      run: (request: FastifyRequest<R>, actor: PortalActor) => Promise<Notice | URL>,
    ) =>
    async (request: FastifyRequest<R>, reply: FastifyReply) => {
      const actor = actors.get(request as FastifyRequest);
      if (actor === undefined) return message(reply, SESSION_ENDED, 404);
      try {
        const done = await run(request, actor);
        return redirectAfterPost(reply, done instanceof URL ? done.href : `${pageUrl}?done=${done}`);
      } catch (error) {
        if (
          !(error instanceof SvcError) ||
          !error.expose ||
          error.status >= 500 ||
          error instanceof PortalCsrfError
        ) {
          throw error;
        }
        return showPage(reply, actor, { error: error.message }, error.status);
      }
    };

  const connectionId = (request: FastifyRequest) => parseParams(ssoConnectionPathSchema, request.params).id;

  return async (app) => {
    app.get('/start', async (request, reply) => {
      const query = startQuerySchema.safeParse(request.query);
      const started = query.success ? await deps.sessions.exchange(query.data.token, request.ip) : undefined;
      if (started === undefined) return message(reply, LINK_REFUSED, 400);
      setPortalCookie(reply, deps, started.secret, started.session.expiresAt, deps.clock.now());
      return reply.code(303).header('location', pageUrl).send();
    });

    await app.register(
      async (page) => {
        page.addHook('onRequest', async (request) => {
          const actor = await portalActor(request, deps.sessions);
          if (actor !== undefined) actors.set(request, actor);
        });
        // After the form body is parsed, before the route: every form carries the session's token.
        page.addHook('preValidation', async (request) => {
          const actor = actors.get(request);
          if (request.method === 'POST' && actor !== undefined) {
            requirePortalCsrf(csrf, request, actor, field(request.body, PORTAL_CSRF_FIELD));
          }
        });

        page.get('/', async (request, reply) => {
          const actor = actors.get(request);
          if (actor === undefined) return message(reply, SESSION_ENDED, 404);
          const { done } = pageQuerySchema.catch({}).parse(request.query);
          return showPage(reply, actor, done === undefined ? {} : { notice: NOTICES[done] });
        });

        page.post(
          '/connections',
          action(async (request, actor) => {
            await setup.createConnection(actor, parseBody(createSsoConnectionBodySchema, request.body));
            return 'created';
          }),
        );
        page.post(
          '/connections/:id/metadata',
          action(async (request, actor) => {
            await setup.importMetadata(actor, connectionId(request), metadataOf(request.body));
            return 'metadata';
          }),
        );
        page.post(
          '/connections/:id/enable',
          action(async (request, actor) => {
            await setup.setEnabled(actor, connectionId(request), true);
            return 'enabled';
          }),
        );
        page.post(
          '/connections/:id/disable',
          action(async (request, actor) => {
            await setup.setEnabled(actor, connectionId(request), false);
            return 'disabled';
          }),
        );
        page.post(
          '/connections/:id/test',
          action(async (request, actor) => new URL(await setup.startTest(actor, connectionId(request)))),
        );
        page.post(
          '/domains',
          action(async (request, actor) => {
            await setup.startDomain(actor, parseBody(startDomainVerificationBodySchema, request.body).domain);
            return 'domain';
          }),
        );
        page.post(
          '/domains/:id/verify',
          action(async (request, actor) => {
            await setup.verifyDomain(actor, parseParams(recordPathSchema, request.params).id);
            return 'checked';
          }),
        );
      },
      { prefix: deps.pagePath },
    );
  };
}
