import { oidcProviderPathSchema } from '@svc/contract';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { parseParams } from '../../http/body.js';
import { setSessionCookie } from '../../http/cookies.js';
import type { BrowserContext, StartedSession } from '../../signin/flow/authorize-outcomes.js';
import type { ProviderSteps } from '../../signin/methods/oidc/provider-steps.js';
import { CROSS_SITE_POST } from '../antiforgery-hook.js';
import { currentStepHref, HOSTED_FIELDS } from '../form.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';
import { sendActionOutcome } from './outcome-reply.js';
import { browserContext, singleValue } from './request-values.js';

export interface ProviderRoutesDeps extends HostedSignInDeps {
  readonly provider: ProviderSteps;
}

/** The provider callback's parameters worth passing on; anything else a provider sends is dropped. */
const CALLBACK_PARAMETERS = ['code', 'state', 'iss', 'error', 'error_description', 'error_uri', 'user'];
const MAX_PARAMETER_LENGTH = 8192;

/** The callback's known parameters, each once and of a sane length (a query or a form body). */
function callbackParameters(source: unknown): URLSearchParams {
  const params = new URLSearchParams();
  for (const name of CALLBACK_PARAMETERS) {
    const value = singleValue(source, name);
    if (value !== undefined && value.length <= MAX_PARAMETER_LENGTH) params.set(name, value);
  }
  return params;
}

/**
 * Sign-in through a provider on the hosted pages:
 *
 * - GET /login/oidc/{connectionId}?request_id=…: the provider button of every sign-in page; sends the
 *   browser to the provider (303), or shows the page again saying the provider is not available.
 * - GET /oidc/callback: where every provider sends the user back (docs/reference/federation.md). The
 *   request continues only in the browser bound to it; then to the request's next step (the app-owned
 *   UI when one is configured), or the client. A callback nothing waits for: the hosted error page (400).
 * - POST /oidc/callback: Apple's `response_mode=form_post`. A cross-site POST carries no SameSite=Lax
 *   cookie, so the browser could not be recognized: 303 to the GET with the same parameters, which does
 *   carry them (docs/reference/federation.md "The flow"). It is CROSS_SITE_POST: a provider
 *   cannot hold Svc's antiforgery token; the state is the callback's check.
 */
export function providerRoutes(deps: ProviderRoutesDeps): FastifyPluginAsync {
  const { site } = deps;
  return async (app) => {
    app.get('/login/oidc/:connectionId', { exposeHeadRoute: false }, async (request, reply) => {
      const { connectionId } = parseParams(oidcProviderPathSchema, request.params);
      const outcome = await deps.provider.start(
        singleValue(request.query, HOSTED_FIELDS.requestId),
        browserContext(request),
        connectionId,
      );
      return sendActionOutcome(reply, request, deps, outcome);
    });

    app.get('/oidc/callback', { exposeHeadRoute: false }, async (request, reply) => {
      const browser = browserContext(request);
      const outcome = await deps.provider.callback(callbackParameters(request.query), browser);
      const { browserId } = browser;
      if (outcome.kind !== 'next' || deps.appUi === undefined || browserId === undefined) {
        return sendActionOutcome(reply, request, deps, outcome);
      }
      return continueInAppUi(reply, deps, outcome, { ...browser, browserId });
    });

    app.post('/oidc/callback', { config: CROSS_SITE_POST }, async (request, reply) => {
      const query = callbackParameters(request.body).toString();
      return reply.redirect(`${site.authBase}/oidc/callback${query === '' ? '' : `?${query}`}`, 303);
    });
  };
}

/** A request an app-owned UI drives goes back to that UI for its next step, with the new session cookie. */
async function continueInAppUi(
  reply: FastifyReply,
  deps: ProviderRoutesDeps,
  outcome: { readonly requestId: string; readonly session?: StartedSession | undefined },
  browser: BrowserContext & { readonly browserId: string },
): Promise<FastifyReply> {
  if (outcome.session !== undefined) {
    setSessionCookie(reply, deps.site, outcome.session.token, outcome.session.expiresAt, deps.clock.now());
  }
  const location =
    (await deps.appUi?.location(outcome.requestId, {
      ...browser,
      sessionToken: outcome.session?.token ?? browser.sessionToken,
    })) ?? currentStepHref(deps.site.authBase, outcome.requestId);
  return reply.redirect(location, 303);
}
