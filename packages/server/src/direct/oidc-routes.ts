import {
  svcOidcCompleteRequestSchema,
  svcOidcStartRequestSchema,
  type SvcOidcExchangeResult,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAuthProviders } from '../app/facades/svc-auth-providers.js';
import { parseBody } from '../http/body.js';
import { directErrorHandler, directRouteContext } from './routes.js';

export interface OidcDirectRoutesDeps {
  readonly auth: Pick<
    Operations<SvcAuthProviders>,
    | 'listEnabledProvidersAsync'
    | 'startAuthorizationAsync'
    | 'completeAuthorizationAsync'
    | 'completeExternalLoginAsync'
  >;
}

/**
 * docs/reference/federation.md (mounted at `{authBase}`):
 *
 * - GET /oidc/providers lists the enabled providers, a button each for an app-owned sign-in UI. Public:
 *   names and logos only.
 * - POST /oidc/authorization-url (docs/reference/federation.md) → {authorizationUrl, connectionId,
 *   providerType, displayName}: the provider's URL for a first-party app that keeps its own state, nonce
 *   and PKCE verifier, and receives the provider's answer at its own registered callback (docs/reference/federation.md).
 * - POST /oidc/exchange (docs/reference/federation.md) → the completion (userId, email, emailVerified,
 *   displayName, organizationId, authenticationMethod, organizationCount, userCreated, connectionId) and
 *   the SvcLoginResult of signing that user in (docs/reference/federation.md): exactly
 *   CompleteAuthorizationAsync, then CompleteExternalLoginAsync with its userId, as a host does in process.
 *
 * Both POSTs are first-party only (400 `invalid_client` before a provider is asked; a confidential
 * client authenticates), like every direct sign-in helper; their bodies are parsed with the contract
 * schemas (400 naming each wrong field). Nothing is cached: the answers carry tokens and one-time URLs.
 */
export function oidcDirectRoutes(deps: OidcDirectRoutesDeps): FastifyPluginAsync {
  const { auth } = deps;
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    // Disabling a connection takes its button away at once, and tokens must not be kept.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/oidc/providers', async () => auth.listEnabledProvidersAsync());

    app.post('/oidc/authorization-url', async (request) =>
      auth.startAuthorizationAsync(
        parseBody(svcOidcStartRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/oidc/exchange', async (request): Promise<SvcOidcExchangeResult> => {
      const body = parseBody(svcOidcCompleteRequestSchema, request.body);
      const context = directRouteContext(request);
      const completion = await auth.completeAuthorizationAsync(body, context);
      const login = await auth.completeExternalLoginAsync(
        {
          userId: completion.userId,
          clientId: body.clientId,
          clientSecret: body.clientSecret,
          authenticationMethod: completion.authenticationMethod,
        },
        context,
      );
      return { ...completion, ...login };
    });
  };
}
