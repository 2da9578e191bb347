import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { END_SESSION_PATH } from '../../oauth/discovery/end-session-metadata.js';
import { CROSS_SITE_POST, issueAntiforgeryToken } from '../antiforgery-hook.js';
import { clearSessionCookie, readSessionCookie } from '../../http/cookies.js';
import { SvcHostedPageError } from '../../signin/flow/page-error.js';
import { renderEndSessionPage } from '../pages/end-session-page.js';
import { redirectAfterPost, sendPage } from '../../http/pages/reply.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { endSessionRequest, logoutParameters, presentFields } from './logout-parameters.js';

const CONFIRM_PATH = `${END_SESSION_PATH}/confirm`;

/**
 * OpenID Connect RP-Initiated Logout 1.0 at `{issuer}/session/end` (docs/reference/tokens-and-sessions.md "Logout"):
 *
 * - GET and POST `/session/end` take the relying party's request (a POST is form-encoded, sent from the
 *   client's site, so it carries no antiforgery token: the route is CROSS_SITE_POST). With an ID token
 *   hint of the signed-in person the session ends and the browser returns to a registered post-logout
 *   URI (`state` appended) or the logged-out page; otherwise the confirmation page, and nothing ends.
 *   A cross-site POST brings no SameSite=Lax session cookie, so without one it is answered with a 303
 *   to the same request as a GET, which, being a top-level navigation, does bring it.
 * - POST `/session/end/confirm` is the confirmation form (antiforgery-checked like every hosted form):
 *   it ends the session and returns to the post-logout URI only when it is registered for the posted
 *   client_id.
 *
 * No HEAD routes: a link checker or a prefetch must not take part in a logout.
 */
export function endSessionRoutes(deps: HostedSignInDeps): FastifyPluginAsync {
  return async (app) => {
    const loggedOut = `${deps.site.authBase}/logged-out`;

    async function answer(request: FastifyRequest, reply: FastifyReply, source: unknown, status: 302 | 303) {
      const outcome = await deps.endSession.request(readSessionCookie(request), endSessionRequest(source));
      if (outcome.kind === 'refused') {
        throw new SvcHostedPageError(
          'This sign-out request is not valid',
          'The application that sent you here asked to sign out for another application. Go back to it and sign out again.',
          { code: 'invalid_logout_request' },
        );
      }
      if (outcome.kind === 'confirm') {
        return sendPage(
          reply,
          renderEndSessionPage({
            authBase: deps.site.authBase,
            antiforgeryToken: issueAntiforgeryToken(deps.antiforgery, deps.site, request, reply),
            action: `${deps.site.authBase}${CONFIRM_PATH}`,
            hidden: presentFields(outcome.parameters),
            ...(outcome.userEmail === undefined ? {} : { userEmail: outcome.userEmail }),
          }),
        );
      }
      clearSessionCookie(reply, deps.site);
      return reply.redirect(outcome.location ?? loggedOut, status);
    }

    app.get(END_SESSION_PATH, { exposeHeadRoute: false }, (request, reply) =>
      answer(request, reply, request.query, 302),
    );

    app.post(END_SESSION_PATH, { config: CROSS_SITE_POST }, async (request, reply) => {
      if (readSessionCookie(request) !== undefined) return answer(request, reply, request.body, 303);
      const query = new URLSearchParams(presentFields(endSessionRequest(request.body))).toString();
      return redirectAfterPost(
        reply,
        `${deps.site.authBase}${END_SESSION_PATH}${query === '' ? '' : `?${query}`}`,
      );
    });

    app.post(CONFIRM_PATH, async (request, reply) => {
      const location = await deps.logout.logout(
        readSessionCookie(request),
        logoutParameters(request.body),
        'end_session',
      );
      clearSessionCookie(reply, deps.site);
      return redirectAfterPost(reply, location ?? loggedOut);
    });
  };
}
