import { opaqueTokenSchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import {
  magicLinkInvalidError,
  type MagicLinkLanding,
} from '../signin/methods/magic-link/magic-link-landing.js';
import { issueAntiforgeryToken } from './antiforgery-hook.js';
import { sendActionOutcome } from './login/outcome-reply.js';
import { browserContext, singleValue } from './login/request-values.js';
import { MAGIC_LINK_TOKEN_FIELD, renderMagicLinkPage } from './pages/magic-link-page.js';
import { redirectAfterPost, sendPage } from '../http/pages/reply.js';
import type { HostedSignInDeps } from './sign-in-deps.js';

/** What the emailed link's page needs. */
export interface MagicLinkRoutesDeps extends HostedSignInDeps {
  readonly magicLinkLanding: MagicLinkLanding;
}

/** The token of a query or form, when it has the shape of a token Svc issues. */
function tokenOf(source: unknown): string | undefined {
  const parsed = opaqueTokenSchema.safeParse(singleValue(source, MAGIC_LINK_TOKEN_FIELD));
  return parsed.success ? parsed.data : undefined;
}

/**
 * The page an emailed sign-in link opens (docs/reference/sign-in.md "Sign-in links": a hosted page that completes on a click (link
 * scanners must not consume it)): GET /magic-link?token= shows a Continue button and uses nothing;
 * POST /magic-link (token plus antiforgery) continues the link's authorization request in the browser
 * bound to it, or hands a direct link to its client (303 either way). Unusable links get one page (400).
 */
export function magicLinkRoutes(deps: MagicLinkRoutesDeps): FastifyPluginAsync {
  const { site } = deps;
  return async (app) => {
    // No implicit HEAD route: a HEAD has no use for the page.
    app.get('/magic-link', { exposeHeadRoute: false }, async (request, reply) => {
      const token = tokenOf(request.query);
      if (token === undefined) throw magicLinkInvalidError();
      const antiforgeryToken = issueAntiforgeryToken(deps.antiforgery, site, request, reply);
      return sendPage(reply, renderMagicLinkPage({ authBase: site.authBase, antiforgeryToken, token }));
    });

    app.post('/magic-link', async (request, reply) => {
      const outcome = await deps.magicLinkLanding.open(tokenOf(request.body), browserContext(request));
      if (outcome.kind === 'handoff') return redirectAfterPost(reply, outcome.location);
      return sendActionOutcome(reply, request, deps, outcome);
    });
  };
}
