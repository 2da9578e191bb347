import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { logIfUnexpected } from '../http/errors.js';
import { SvcTooManyAttemptsError, SvcUnavailableError } from '../kernel/errors.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Antiforgery } from '../http/antiforgery.js';
import { requireAntiforgery } from './antiforgery-hook.js';
import { errorPageContent } from './error-content.js';
import { HostedAntiforgeryError } from './errors.js';
import { renderErrorPage } from './pages/error-page.js';
import { renderLoggedOutPage } from './pages/logged-out-page.js';
import { sendPage } from '../http/pages/reply.js';
import { HOSTED_SECURITY_HEADERS } from '../http/pages/security-headers.js';
import { sendStylesheet } from '../http/pages/stylesheet-route.js';
import { STYLESHEET_PATH } from '../http/pages/styles.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * CROSS_SITE_POST (antiforgery-hook.ts): a POST other sites send by design, let through the
     * antiforgery check. Declared so that route config stays typed when a plugin (such as
     * `@fastify/swagger`) declares config fields of its own.
     */
    readonly svcCrossSitePost?: boolean;
  }
}

export interface HostedRoutesDeps {
  /**
   * The absolute auth base path the plugin is mounted at (for example `/svc/auth`): form actions, links,
   * the stylesheet and the cookies' Path are built from it.
   */
  readonly authBase: string;
  /** Checks every hosted POST (and issues tokens for the GET pages). */
  readonly antiforgery: Antiforgery;
  /**
   * Route plugins of the sign-in flow, registered inside this plugin so that they inherit its form
   * parser, cookies, security headers, antiforgery check and error page.
   */
  readonly routes?: readonly FastifyPluginAsync[];
}

/**
 * The hosted error mapper: renders the error page with the right status, never internals. Antiforgery
 * refusals are logged at info with their reason (the page says the same for every reason); unexpected
 * errors once at error with the request id.
 */
export function hostedErrorHandler(
  authBase: string,
): (error: unknown, request: FastifyRequest, reply: FastifyReply) => FastifyReply {
  return (error, request, reply) => {
    const content = errorPageContent(error);
    if (error instanceof HostedAntiforgeryError) {
      request.log.info(
        { reason: error.reason, reqId: request.id },
        'hosted form refused by the antiforgery check',
      );
    } else {
      logIfUnexpected(request, error, content);
    }
    if (error instanceof SvcUnavailableError || error instanceof SvcTooManyAttemptsError) {
      reply.header('retry-after', String(error.retryAfterSeconds));
    }
    for (const [name, value] of Object.entries(HOSTED_SECURITY_HEADERS)) reply.header(name, value);
    return sendPage(reply, renderErrorPage({ authBase, ...content }), content.status);
  };
}

/**
 * The hosted pages as one encapsulated plugin, mounted by app/http.ts at the auth base. It brings its own
 * form parser and cookie support (only when the parent scope has none, so a host that registered them
 * already keeps working), sets the security headers on every response, refuses any POST without a valid
 * antiforgery token before the route runs (docs/reference/sign-in.md "Hosted pages": 400 before any processing), and
 * renders errors as the hosted error page.
 *
 * Its own routes are the stylesheet and GET /logged-out; the sign-in routes join through `deps.routes`,
 * so that they inherit all of the above.
 */
export function hostedRoutes(deps: HostedRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) await app.register(fastifyFormbody);
    if (!app.hasReplyDecorator('setCookie')) await app.register(fastifyCookie);
    app.setErrorHandler(hostedErrorHandler(deps.authBase));
    app.addHook('onRequest', async (_request, reply) => {
      for (const [name, value] of Object.entries(HOSTED_SECURITY_HEADERS)) reply.header(name, value);
    });
    // preValidation: after the body is parsed, before any schema or handler of the route.
    app.addHook('preValidation', requireAntiforgery(deps.antiforgery));

    app.get(STYLESHEET_PATH, sendStylesheet);

    app.get('/logged-out', async (_request, reply) =>
      sendPage(reply, renderLoggedOutPage({ authBase: deps.authBase })),
    );
    for (const routes of deps.routes ?? []) await app.register(routes);
  };
}
