import { samlConnectionPathSchema } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { SamlAssertionConsumer } from '../../federation/saml/assertion-consumer.js';
import { parseParams } from '../../http/body.js';
import type { Clock } from '../../kernel/clock.js';
import { ANTIFORGERY_COOKIE, type Antiforgery } from '../../http/antiforgery.js';
import { browserPlace } from '../../http/browser-place.js';
import { setSessionCookie, type CookieSite } from '../../http/cookies.js';
import { CROSS_SITE_POST } from '../antiforgery-hook.js';
import { ensureBrowserId, singleValue } from '../login/request-values.js';
import { redirectAfterPost } from '../../http/pages/reply.js';

export interface SamlAcsRoutesDeps {
  readonly consumer: Pick<SamlAssertionConsumer, 'accept' | 'continue'>;
  readonly site: CookieSite;
  readonly clock: Clock;
  readonly antiforgery: Antiforgery;
}

/** The longest RelayState read (Svc sends 43 characters; SAML caps it at 80 bytes). */
const MAX_RELAY_STATE_LENGTH = 1024;

/**
 * The SAML assertion consumer service on the hosted surface (docs/reference/federation.md):
 *
 * - POST /saml/acs/{connectionId}: the IdP's HTTP-POST binding (`SAMLResponse`, `RelayState` as a form).
 *   It is CROSS_SITE_POST: an IdP cannot hold Svc's antiforgery token; the SAML checks (signature,
 *   audience, destination, InResponseTo, RelayState, replay) are its protection. A cross-site POST
 *   carries no SameSite=Lax cookie, so the accepted answer is kept under a one-time handle and the
 *   browser is sent (303) to the GET below, which carries them.
 * - GET /saml/continue?handle=…: takes the answer once and goes on with the sign-in it continues (a 303,
 *   with the new issuer session's cookie when one started). A browser without an antiforgery id gets one
 *   first: an app's SAML entry point (`sso-authorization`) starts its authorization request here, bound
 *   to this browser; a request started elsewhere is still refused, its binding being another id.
 *
 * Every refusal is the hosted error page (400; 404 for an unknown connection).
 */
export function samlAcsRoutes(deps: SamlAcsRoutesDeps): FastifyPluginAsync {
  const { site } = deps;
  return async (app) => {
    app.post('/saml/acs/:connectionId', { config: CROSS_SITE_POST }, async (request, reply) => {
      const { connectionId } = parseParams(samlConnectionPathSchema, request.params);
      const relayState = singleValue(request.body, 'RelayState');
      const handle = await deps.consumer.accept(
        connectionId,
        singleValue(request.body, 'SAMLResponse'),
        relayState !== undefined && relayState.length <= MAX_RELAY_STATE_LENGTH ? relayState : undefined,
        { ipAddress: request.ip },
      );
      return redirectAfterPost(reply, `${site.authBase}/saml/continue?handle=${encodeURIComponent(handle)}`);
    });

    app.get('/saml/continue', { exposeHeadRoute: false }, async (request, reply) => {
      const browserId = ensureBrowserId(deps.antiforgery, site, request, reply);
      const next = await deps.consumer.continue(
        singleValue(request.query, 'handle'),
        { ...request.cookies, [ANTIFORGERY_COOKIE]: browserId },
        browserPlace(request),
      );
      if (next.session !== undefined) {
        setSessionCookie(reply, site, next.session.token, next.session.expiresAt, deps.clock.now());
      }
      return redirectAfterPost(reply, next.location);
    });
  };
}
