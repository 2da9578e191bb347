import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionCsrf } from '../kernel/session-csrf.js';
import type { PortalSetup } from '../federation/sso-portal/portal-setup.js';
import type { SsoPortalSessions } from '../federation/sso-portal/portal-sessions.js';
import { logIfUnexpected, mapError } from '../http/errors.js';
import { MULTIPART_MEDIA_TYPE, parseMultipartForm } from '../http/multipart-form.js';
import { sendPage } from '../http/pages/reply.js';
import { HOSTED_SECURITY_HEADERS } from '../http/pages/security-headers.js';
import { sendStylesheet } from '../http/pages/stylesheet-route.js';
import { STYLESHEET_PATH } from '../http/pages/styles.js';
import type { Clock } from '../kernel/clock.js';
import { SvcValidationError } from '../kernel/errors.js';
import { portalApiRoutes } from './api-routes.js';
import { portalPageRoutes } from './page-routes.js';
import { renderMessagePage } from './pages/message-page.js';

export interface SetupPortalDeps {
  /** The absolute portal base path (for example `/svc/admin/auth/sso-portal`). */
  readonly portalBase: string;
  /** The page's path under the portal base. */
  readonly pagePath: string;
  readonly publicOrigin: string;
  readonly sessions: SsoPortalSessions;
  readonly setup: PortalSetup;
  readonly csrf: SessionCsrf;
  readonly clock: Clock;
}

/** What the error page says, by status; never internals. */
const ERROR_TITLES: Readonly<Record<number, string>> = {
  403: 'This form has expired',
  413: 'The file is too large',
  429: 'Too many attempts',
};

function pageErrorHandler(portalBase: string) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const mapped = mapError(error);
    logIfUnexpected(request, error, mapped);
    if (mapped.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.retryAfterSeconds));
    const title =
      ERROR_TITLES[mapped.status] ??
      (mapped.status >= 500 ? 'Something went wrong' : 'This request cannot be completed');
    const message = mapped.status >= 500 ? 'Wait a moment, then reload the page.' : mapped.message;
    return sendPage(reply, renderMessagePage({ portalBase, title, message }), mapped.status);
  };
}

/**
 * The customer SSO setup portal as one encapsulated plugin, mounted at its base
 * (`/svc/admin/auth/sso-portal`): the setup-link exchange, the page and its forms (HTML errors, the page
 * security headers, form and multipart bodies for the metadata upload) and, at `/api/setup`, the JSON
 * API with its own error mapper. Cookie and form support are registered only when the parent scope has
 * none, so a host that registered them keeps working.
 */
export function setupPortalRoutes(deps: SetupPortalDeps): FastifyPluginAsync {
  return async (app) => {
    if (!app.hasReplyDecorator('setCookie')) await app.register(fastifyCookie);
    app.addHook('onRequest', async (_request, reply) => {
      for (const [name, value] of Object.entries(HOSTED_SECURITY_HEADERS)) reply.header(name, value);
    });
    await app.register(portalApiRoutes(deps), { prefix: '/api/setup' });
    await app.register(async (pages) => {
      if (!pages.hasContentTypeParser('application/x-www-form-urlencoded'))
        await pages.register(fastifyFormbody);
      pages.addContentTypeParser(MULTIPART_MEDIA_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
        const fields = parseMultipartForm(body as Buffer, request.headers['content-type'] ?? '');
        if (fields === undefined)
          done(
            new SvcValidationError('The form could not be read. Reload the page and try again.'),
            undefined,
          );
        else done(null, fields);
      });
      pages.setErrorHandler(pageErrorHandler(deps.portalBase));
      pages.get(STYLESHEET_PATH, sendStylesheet);
      await pages.register(portalPageRoutes(deps));
    });
  };
}
