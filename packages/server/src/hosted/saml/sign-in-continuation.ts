import type {
  SamlContinuationHandler,
  SamlContinuationRedirect,
} from '../../federation/saml/continuations.js';
import { readAntiforgeryCookie, readSessionCookie } from '../../http/cookies.js';
import type { AuthorizeActionOutcome, BrowserContext } from '../../signin/flow/authorize-outcomes.js';
import { SAML_SIGN_IN_KIND, type SamlSteps } from '../../signin/methods/saml/saml-steps.js';
import { currentStepHref } from '../form.js';
import type { HostedSignInDeps } from '../sign-in-deps.js';

export interface SamlSignInContinuationDeps extends Pick<HostedSignInDeps, 'site' | 'appUi'> {
  readonly saml: Pick<SamlSteps, 'complete'>;
}

/**
 * The `sign-in` continuation: an accepted answer continues its authorization request in the browser
 * whose cookies came with `/saml/continue` (the antiforgery cookie's id is the request's browser
 * binding). Then to the client, or to the request's next step: the app-owned UI's when one drives the
 * request (as after a provider's callback), else the hosted page.
 */
export function samlSignInContinuation(deps: SamlSignInContinuationDeps): SamlContinuationHandler {
  return {
    kind: SAML_SIGN_IN_KIND,
    async complete(signIn, cookies, place): Promise<SamlContinuationRedirect> {
      const browser: BrowserContext = {
        browserId: readAntiforgeryCookie({ cookies }),
        sessionToken: readSessionCookie({ cookies }),
        ...(place.ipAddress === undefined ? {} : { ipAddress: place.ipAddress }),
        ...(place.userAgent === undefined ? {} : { userAgent: place.userAgent }),
      };
      const outcome = await deps.saml.complete(signIn, browser);
      const session = 'session' in outcome ? outcome.session : undefined;
      return {
        location: await locationOf(deps, outcome, browser, session?.token),
        ...(session === undefined ? {} : { session }),
      };
    },
  };
}

async function locationOf(
  deps: SamlSignInContinuationDeps,
  outcome: AuthorizeActionOutcome,
  browser: BrowserContext,
  sessionToken: string | undefined,
): Promise<string> {
  if (outcome.kind === 'redirect') return outcome.location;
  const requestId = outcome.kind === 'next' ? outcome.requestId : outcome.step.request.requestId;
  const { browserId } = browser;
  if (deps.appUi !== undefined && browserId !== undefined) {
    return deps.appUi.location(requestId, {
      ...browser,
      browserId,
      sessionToken: sessionToken ?? browser.sessionToken,
    });
  }
  return currentStepHref(deps.site.authBase, requestId);
}
