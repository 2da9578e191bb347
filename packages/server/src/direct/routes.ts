import {
  svcLogoutRequestSchema,
  svcPasswordLoginRequestSchema,
  svcRefreshRequestSchema,
  svcSelectOrganizationRequestSchema,
  svcSignupRequestSchema,
} from '@svc/contract';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Operations } from '../app/facades/operations.js';
import type { SvcAuthAccount } from '../app/facades/svc-auth-account.js';
import type { SvcAuthCallContext } from '../app/facades/svc-auth-service.js';
import type { SvcAuthSessions } from '../app/facades/svc-auth-sessions.js';
import type { SvcAuthSignIn } from '../app/facades/svc-auth-sign-in.js';
import { parseBody } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import { acceptJsonBodies } from '../http/json-body.js';
import { SvcClientAuthenticationError } from '../kernel/errors.js';
import { directCallContext } from './call-context.js';
import {
  grantRevokeBodySchema,
  identityRemoveBodySchema,
  refreshTokenProofBodySchema,
  requirePresentedRefreshToken,
} from './refresh-token-proof.js';

export interface DirectRoutesDeps {
  /** Every direct route is a call of this facade; the first-party gate and the audit live behind it. */
  readonly auth: Operations<SvcAuthSignIn> & Operations<SvcAuthSessions> & Operations<SvcAuthAccount>;
}

/**
 * The direct helpers' error mapper: docs/reference/errors.md "Shapes" `{ error, message }` (plus
 * `details` for validation failures), never cached. OAuth errors of the engine (`invalid_grant`,
 * `invalid_target` at refresh) keep their code, with their description as the message. The one
 * exception is the body docs/reference/sign-in.md "Direct JSON helpers" gives a confidential client's token at POST /token/refresh: "401 with
 * error='invalid_client' and error_description='Client authentication failed.'".
 */
export function directErrorHandler(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof SvcClientAuthenticationError) {
    return reply
      .code(error.status)
      .header('cache-control', 'no-store')
      .send({ error: error.code, error_description: error.message });
  }
  return jsonErrorHandler(error, request, reply);
}

/** The call context of a direct route: the matched route, the client address and the user agent. */
export function directRouteContext(request: FastifyRequest): SvcAuthCallContext {
  return directCallContext({
    route: request.routeOptions.url ?? request.url,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    authorization: request.headers.authorization,
  });
}

/**
 * docs/reference/sign-in.md "Direct JSON helpers" under the auth base (first-party host integrations; tokens in the body;
 * camelCase records, field names case-insensitive). app/http.ts mounts it at `{auth_base}`:
 *
 * - POST /signup, /password/login, /select-organization → 200 SvcLoginResult. A client that is not
 *   first-party gets 400 `invalid_client` before any credential check, email or token minting, and a
 *   confidential client that does not authenticate (HTTP Basic or `clientSecret`) 401 `invalid_client`,
 *   each with one `oauth.direct_login.rejected` event (the facade's gate; this plugin passes the route
 *   and the Authorization header).
 * - POST /token/refresh → 200 SvcTokenResponse for a public client's token. There is no client
 *   authentication channel: Authorization headers and secret fields are ignored (the body schema reads
 *   only refreshToken and organizationId), and a confidential client's token is a 401 before rotation.
 * - POST /logout {refreshToken?} → 204; unknown, missing or malformed tokens are no-ops (a token with a
 *   control character included), a sessionId is ignored.
 * - POST /logout-all {refreshToken} → 204; 401 when the token is missing, inactive, expired or consumed.
 * - POST /account/grants {refreshToken} → 200 {data}; POST /account/grants/revoke {refreshToken,
 *   grantId} → 200 {id, revokedAt}; 401 without an active first-party session, 400 for an unknown or
 *   already revoked grant.
 *
 * The retired /saml/login/{connectionId} is deliberately not mapped (docs/reference/sign-in.md "Direct JSON helpers"): it answers
 * the surface's 404. POST /token/exchange is the request-token flow's own (./sso-routes.ts): it never
 * takes an OAuth authorization code.
 */
export function directRoutes(deps: DirectRoutesDeps): FastifyPluginAsync {
  const { auth } = deps;
  return async (app) => {
    app.setErrorHandler(directErrorHandler);
    // Tokens travel in these bodies: no cache may keep them (RFC 6749 §5.1 asks the same of /token).
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.post('/signup', async (request) =>
      auth.signUpAsync(parseBody(svcSignupRequestSchema, request.body), directRouteContext(request)),
    );

    app.post('/password/login', async (request) =>
      auth.loginWithPasswordAsync(
        parseBody(svcPasswordLoginRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/select-organization', async (request) =>
      auth.selectOrganizationForLoginAsync(
        parseBody(svcSelectOrganizationRequestSchema, request.body),
        directRouteContext(request),
      ),
    );

    app.post('/token/refresh', async (request) =>
      auth.refreshAsync(parseBody(svcRefreshRequestSchema, request.body), directRouteContext(request)),
    );

    // Its own scope, for a JSON parser that reads an empty body as "no token": a client that always
    // sends `Content-Type: application/json` must still be able to log out with nothing to show. A
    // field nested too deeply to read holds no token either.
    await app.register(async (logout) => {
      acceptJsonBodies(logout, { blankIsNoBody: true, tooDeep: 'drop the field' });
      logout.post('/logout', async (request, reply) => {
        const { refreshToken } = parseBody(svcLogoutRequestSchema, request.body ?? {});
        if (refreshToken !== null) await auth.logoutAsync({ refreshToken });
        return reply.code(204).send();
      });
    });

    app.post('/logout-all', async (request, reply) => {
      const { refreshToken } = parseBody(refreshTokenProofBodySchema, request.body ?? {});
      await auth.logoutAllWithRefreshTokenAsync({
        refreshToken: requirePresentedRefreshToken(refreshToken),
      });
      return reply.code(204).send();
    });

    app.post('/account/grants', async (request) => {
      const { refreshToken } = parseBody(refreshTokenProofBodySchema, request.body ?? {});
      return auth.listAccountGrantsAsync({ refreshToken: requirePresentedRefreshToken(refreshToken) });
    });

    app.post('/account/identities', async (request) => {
      const { refreshToken } = parseBody(refreshTokenProofBodySchema, request.body ?? {});
      return auth.listLinkedIdentitiesAsync({ refreshToken: requirePresentedRefreshToken(refreshToken) });
    });

    app.post('/account/identities/remove', async (request, reply) => {
      const { refreshToken, identityId } = parseBody(identityRemoveBodySchema, request.body);
      await auth.removeLinkedIdentityAsync({
        refreshToken: requirePresentedRefreshToken(refreshToken),
        identityId,
      });
      return reply.code(204).send();
    });

    app.post('/account/grants/revoke', async (request) => {
      const { refreshToken, grantId } = parseBody(grantRevokeBodySchema, request.body);
      return auth.revokeAccountGrantAsync({
        refreshToken: requirePresentedRefreshToken(refreshToken),
        grantId,
      });
    });
  };
}
