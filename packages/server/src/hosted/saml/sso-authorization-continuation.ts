import { appContinuationOf, SSO_AUTHORIZATION_KIND } from '../../federation/saml/app-entry.js';
import { signInExpired } from '../../federation/saml/assertion-consumer.js';
import type { SamlContinuationHandler } from '../../federation/saml/continuations.js';
import { readAntiforgeryCookie } from '../../http/cookies.js';
import { PKCE_METHOD } from '../../oauth/pkce.js';
import type { AuthorizeFlow } from '../../signin/flow/authorize-flow.js';
import { SAML_SIGN_IN_KIND } from '../../signin/methods/saml/saml-steps.js';

export interface SamlSsoAuthorizationContinuationDeps {
  readonly flow: Pick<AuthorizeFlow, 'start'>;
  /** The `sign-in` continuation, which the authorization request goes on with. */
  readonly signIn: SamlContinuationHandler;
}

/**
 * The `sso-authorization` continuation (`POST /sso/authorization-url`,
 * docs/reference/federation.md "SAML entry points of first-party apps"): the accepted answer becomes an
 * ordinary authorization request of the engine in the browser that brought it (the /authorize parameters the
 * start validated: the client, its exact redirect URI, the app's state and S256 challenge, the client's
 * allow-list as the scope, the email as login hint), which then continues exactly as a SAML sign-in of
 * the hosted pages: the connection's organization, its MFA policy on the hosted pages (or the app-owned
 * UI), then an authorization code to the redirect URI with the state, redeemed only at `POST /token`.
 * The request is sessionless: the app started it from its backend, not this browser, so an answer an
 * attacker obtained for their own account and posted from a victim's browser must not sign that browser
 * in (login CSRF, RFC 6749 §10.12). The browser's issuer session is neither reused (the IdP just said
 * who signs in) nor started, replaced or ended; the app checks its own state and PKCE verifier.
 */
export function samlSsoAuthorizationContinuation(
  deps: SamlSsoAuthorizationContinuationDeps,
): SamlContinuationHandler {
  return {
    kind: SSO_AUTHORIZATION_KIND,
    async complete(signIn, cookies, place) {
      const app = appContinuationOf(signIn, SSO_AUTHORIZATION_KIND);
      // The ACS route gives every browser an antiforgery id before it continues.
      const browserId = readAntiforgeryCookie({ cookies });
      if (app === undefined || browserId === undefined) throw signInExpired();
      const started = await deps.flow.start(
        {
          response_type: 'code',
          client_id: app.clientId,
          redirect_uri: app.redirectUri,
          state: app.state,
          code_challenge: app.codeChallenge,
          code_challenge_method: PKCE_METHOD,
          login_hint: app.email,
          ...(app.scope === '' ? {} : { scope: app.scope }),
        },
        { browserId, ...place },
        { sessionless: true },
      );
      // The client was deactivated (or its redirect URI removed) since the start: an error for it, or
      // nowhere to send one.
      if (started.kind === 'redirect') return started.location;
      if (started.kind === 'error_page') throw signInExpired();
      return deps.signIn.complete(
        { ...signIn, continuation: { kind: SAML_SIGN_IN_KIND, authRequestId: started.requestId } },
        cookies,
        place,
      );
    },
  };
}
