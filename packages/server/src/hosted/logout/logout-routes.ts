import type { FastifyPluginAsync } from 'fastify';
import { clearSessionCookie, readSessionCookie } from '../../http/cookies.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { logoutParameters } from './logout-parameters.js';

/**
 * GET /logout (docs/reference/tokens-and-sessions.md "Logout": ends the issuer session cookie and redirects safely): ends the issuer session,
 * clears its cookie and returns to `post_logout_redirect_uri` only when it is a registered redirect URI
 * of the given `client_id` (else to /logged-out). A GET, as docs/reference/tokens-and-sessions.md "Logout" maps it, so that a client can send
 * the browser here with a plain link.
 */
export function logoutRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  return async (app) => {
    // No implicit HEAD route: a HEAD (a link checker, a prefetch) must not end the session.
    app.get('/logout', { exposeHeadRoute: false }, async (request, reply) => {
      const target = await deps.logout.logout(readSessionCookie(request), logoutParameters(request.query));
      clearSessionCookie(reply, deps.site);
      return reply.redirect(target ?? `${deps.site.authBase}/logged-out`, 302);
    });
  };
}
