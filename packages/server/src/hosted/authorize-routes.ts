import type { FastifyPluginAsync } from 'fastify';
import { browserPlace } from '../http/browser-place.js';
import { readSessionCookie } from '../http/cookies.js';
import { ensureBrowserId } from './login/request-values.js';
import { viewEntryHref } from './login/view-entry.js';
import type { HostedSignInDeps } from './sign-in-deps.js';
import { invalidAuthorizeRequestError } from '../signin/flow/errors.js';

/**
 * GET /authorize (docs/reference/tokens-and-sessions.md "The authorization request"). Register it inside `hostedRoutes` (with
 * `hostedSignInRoutes`), whose cookie support, security headers and error page it uses: a request
 * whose client or redirect URI cannot be trusted renders the hosted error page (400); any later error
 * goes back to the client; a valid request continues silently, at GET /login, or at the app-owned UI
 * when one is configured (headlessUiUrl). Answers are 302s: a
 * redirect on GET keeps its method anyway.
 */
export function authorizeRoutes(
  deps: Pick<HostedSignInDeps, 'flow' | 'antiforgery' | 'site' | 'appUi'>,
): FastifyPluginAsync {
  return async (app) => {
    // No implicit HEAD route: a HEAD (a link checker, a prefetch) must not start an authorization request.
    app.get('/authorize', { exposeHeadRoute: false }, async (request, reply) => {
      const browserId = ensureBrowserId(deps.antiforgery, deps.site, request, reply);
      const browser = { browserId, sessionToken: readSessionCookie(request), ...browserPlace(request) };
      const outcome = await deps.flow.start(request.query, browser);
      switch (outcome.kind) {
        case 'error_page':
          throw invalidAuthorizeRequestError(outcome.error, outcome.description);
        case 'redirect':
          return reply.redirect(outcome.location, 302);
        case 'interact':
          if (deps.appUi !== undefined) {
            return reply.redirect(await deps.appUi.location(outcome.requestId, browser), 302);
          }
          return reply.redirect(viewEntryHref(deps.site.authBase, outcome.requestId, outcome.view), 302);
      }
    });
  };
}
