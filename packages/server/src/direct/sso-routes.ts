import {
  svcSsoAuthorizationRequestSchema,
  svcSsoCodeExchangeRequestSchema,
  type SvcSsoAuthorizationResult,
  type SvcTokenResponse,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { SvcSsoService } from '../app/facades/svc-sso-service.js';
import { parseBody } from '../http/body.js';
import { directErrorHandler, directRouteContext } from './routes.js';

export interface SsoDirectRoutesDeps {
  readonly sso: Pick<SvcSsoService, 'createAuthorizationUrlAsync' | 'exchangeCodeAsync'>;
}

/**
 * The SAML entry points of first-party apps (docs/reference/federation.md "SAML entry points of first-party
 * apps"; docs/reference/sign-in.md "Direct JSON helpers"), mounted at `{authBase}`:
 *
 * - POST /sso/authorization-url (docs/reference/federation.md) → {authorizationUrl,
 *   organizationId, organizationName, primaryDomain}: the IdP of the email's organization. Its answer
 *   ends in an OAuth authorization code at the app's redirect URI, redeemed only at POST /token.
 * - POST /token/exchange {code, clientId, redirectUri, codeVerifier} → SvcTokenResponse: the temporary
 *   code of the direct request-token flow (SSO StartAuthorizationAsync) only; an authorization code is
 *   never accepted here (docs/reference/sign-in.md "Direct JSON helpers": the former shortcut for OAuth clients stays retired).
 *
 * Both are first-party only (400 `invalid_client` before anything else; a confidential client
 * authenticates), their bodies parsed with the contract schemas; nothing is cached.
 */
export function ssoDirectRoutes(deps: SsoDirectRoutesDeps): FastifyPluginAsync {
  const { sso } = deps;
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/sso/authorization-url', async (request): Promise<SvcSsoAuthorizationResult> =>
      sso.createAuthorizationUrlAsync(
        parseBody(svcSsoAuthorizationRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/token/exchange', async (request): Promise<SvcTokenResponse> =>
      sso.exchangeCodeAsync(
        parseBody(svcSsoCodeExchangeRequestSchema, request.body),
        directRouteContext(request),
      ),
    );
  };
}
