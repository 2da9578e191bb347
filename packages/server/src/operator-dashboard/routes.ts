import { DASHBOARD_SECTIONS, type SvcDashboardSession } from '@svc/contract';
import { randomBytes } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../http/pages/html.js';
import { renderLayout } from '../http/pages/layout.js';
import { sendPage } from '../http/pages/reply.js';
import { HOSTED_SECURITY_HEADERS } from '../http/pages/security-headers.js';
import { DASHBOARD_CSRF_MESSAGE } from '../http/operator-guard.js';
import { singleHeader } from '../kernel/single-header.js';
import fastifyFormbody from '@fastify/formbody';
import {
  DASHBOARD_CSRF_HEADER,
  DASHBOARD_LOGIN_COOKIE,
  DASHBOARD_SESSION_COOKIE,
  dashboardCookieOptions,
  readDashboardSecret,
  setDashboardCookie,
  type DashboardSite,
} from './dashboard-cookie.js';
import { dashboardContentSecurityPolicy, type BundledDashboard } from './bundled-dashboard.js';
import { consolePath } from './console-paths.js';
import type { FinishedLogin, OperatorDashboard } from './operator-dashboard.js';

const REFUSALS: Record<Exclude<FinishedLogin, { kind: 'started' }>['reason'], string> = {
  stale: 'This sign-in was started in another browser or has expired.',
  refused_upstream: 'The sign-in did not complete.',
  invalid_code: 'The sign-in could not be completed: its code is not valid any more.',
  not_operator:
    'This account is not an operator. An operator can make it one with `svc operator add <email>` on the server.',
};

/**
 * The bundled dashboards' sign-in, under the dashboard base: `/login` starts the hosted sign-in with the
 * dashboard client (`?returnTo=` a console page to open afterwards), `/callback` finishes it with a
 * session cookie, `/api/session` tells the dashboards who is signed in (and the antiforgery token their
 * state-changing calls send as `x-svc-csrf`), `/logout` ends the session, and `/` and each console
 * section (`/users/…`) are the built dashboard app (`bundled`, with its `/assets/*`) or, in a checkout
 * that was never built, a server-rendered landing page. The operator APIs accept the cookie through
 * the operator guard (http/operator-guard.ts).
 */
export function operatorDashboardRoutes(deps: {
  dashboard: OperatorDashboard;
  site: DashboardSite;
  authBase: string;
  now: () => number;
  bundled: BundledDashboard | undefined;
}): FastifyPluginAsync {
  const { dashboard, site, bundled } = deps;
  const page = (reply: FastifyReply, title: string, body: ReturnType<typeof html>, status = 200) =>
    sendPage(reply, renderLayout({ authBase: deps.authBase, title, body }), status);
  const live = async (request: FastifyRequest) => {
    const secret = readDashboardSecret(request);
    if (secret === undefined) return undefined;
    const decision = await dashboard.authorize(secret);
    return decision.kind === 'operator' ? decision.live : undefined;
  };

  return async (app) => {
    if (!app.hasReplyDecorator('setCookie')) await app.register(fastifyCookie);
    // The landing page's sign-out form posts urlencoded; the JSON parser of the parent scope stays.
    if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(fastifyFormbody);
    // Defaults: the app's page and assets set their own CSP and cache lifetime.
    app.addHook('onSend', async (_request, reply) => {
      for (const [name, value] of Object.entries(HOSTED_SECURITY_HEADERS)) {
        if (!reply.hasHeader(name)) reply.header(name, value);
      }
    });

    app.get<{ Querystring: Record<string, unknown> }>('/login', async (request, reply) => {
      const { location, cookie } = await dashboard.beginLogin(
        consolePath(site.dashboardBase, request.query.returnTo),
      );
      reply.setCookie(DASHBOARD_LOGIN_COOKIE, cookie, dashboardCookieOptions(site, 600));
      return reply.redirect(location, 303);
    });

    app.get<{ Querystring: Record<string, unknown> }>('/callback', async (request, reply) => {
      const text = (name: string) =>
        typeof request.query[name] === 'string' ? (request.query[name] as string) : undefined;
      const loginCookie = request.cookies[DASHBOARD_LOGIN_COOKIE];
      reply.clearCookie(DASHBOARD_LOGIN_COOKIE, dashboardCookieOptions(site));
      const finished = await dashboard.finishLogin(
        { code: text('code'), state: text('state'), error: text('error') },
        loginCookie,
        { ipAddress: request.ip },
      );
      if (finished.kind === 'refused') {
        const again = html`<p>${REFUSALS[finished.reason]}</p>
          <p><a class="button" href="${site.dashboardBase}/login">Sign in again</a></p>`;
        return page(reply, 'Dashboard sign-in', again, finished.reason === 'not_operator' ? 403 : 400);
      }
      setDashboardCookie(reply, site, finished.secret, finished.expiresAt, deps.now());
      return reply.redirect(finished.returnTo ?? `${site.dashboardBase}/`, 303);
    });

    app.get('/api/session', async (request, reply) => {
      const session = await live(request);
      if (session === undefined)
        return reply.code(404).send({ error: 'not_found', message: 'No dashboard session.' });
      const body: SvcDashboardSession = {
        user: session.user,
        csrfToken: dashboard.csrfToken(session),
        expiresAt: new Date(session.session.expiresAt).toISOString(),
      };
      return body;
    });

    const consolePage = async (request: FastifyRequest, reply: FastifyReply) => {
      const session = await live(request);
      if (session === undefined) {
        const returnTo = consolePath(site.dashboardBase, request.url);
        const home = returnTo === null || returnTo === `${site.dashboardBase}/`;
        const query = home ? '' : `?${new URLSearchParams({ returnTo }).toString()}`;
        return reply.redirect(`${site.dashboardBase}/login${query}`, 303);
      }
      if (bundled !== undefined) {
        const nonce = randomBytes(18).toString('base64url');
        return reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('content-security-policy', dashboardContentSecurityPolicy(nonce))
          .send(bundled.indexHtml(site.dashboardBase, nonce));
      }
      const body = html`<p>
          Signed in as ${session.user.displayName} (${session.user.email ?? session.user.id}), an operator.
        </p>
        <form method="post" action="${site.dashboardBase}/logout">
          <input type="hidden" name="_csrf" value="${dashboard.csrfToken(session)}" />
          <button type="submit">Sign out</button>
        </form>`;
      return page(reply, 'Svc dashboards', body);
    };

    app.get('/', async (request, reply) => {
      // The console's links are below `{base}/`; the bare base is sent there.
      if (!request.url.split('?', 1)[0]?.endsWith('/')) return reply.redirect(`${site.dashboardBase}/`, 308);
      return consolePage(request, reply);
    });
    for (const section of DASHBOARD_SECTIONS) {
      app.get(`/${section}`, consolePage);
      app.get(`/${section}/*`, consolePage);
    }

    // The app's scripts and stylesheet: public code, served without a session, cached for a year under
    // their content-hashed names.
    app.get<{ Params: { '*': string } }>('/assets/*', async (request, reply) => {
      const asset = bundled?.asset(request.params['*']);
      if (asset === undefined) return reply.callNotFound();
      return reply
        .header('content-type', asset.contentType)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .send(asset.body);
    });

    app.post('/logout', async (request, reply) => {
      const session = await live(request);
      if (session !== undefined) {
        const field = (request.body as Record<string, unknown> | undefined)?._csrf;
        const token = field ?? singleHeader(request.headers[DASHBOARD_CSRF_HEADER]);
        const allowed = dashboard.csrfAllows(
          session,
          token,
          singleHeader(request.headers.origin),
          singleHeader(request.headers.referer),
        );
        if (!allowed) return page(reply, 'Sign out', html`<p>${DASHBOARD_CSRF_MESSAGE}</p>`, 403);
        await dashboard.end(session, request.ip);
      }
      reply.clearCookie(DASHBOARD_SESSION_COOKIE, dashboardCookieOptions(site));
      // The hosted sign-in's own session ends too, so that the next /login asks for the password again.
      return reply.redirect(`${deps.authBase}/logout`, 303);
    });
  };
}
