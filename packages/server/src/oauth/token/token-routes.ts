import type { FastifyPluginAsync } from 'fastify';
import { allowAnyOrigin } from '../../http/any-origin.js';
import { acceptOnlyFormBodies, FORM_MEDIA_TYPE, mediaType } from '../../http/form-body.js';
import { oauthErrorHandler } from '../../http/oauth-error-handler.js';
import { oauthError } from '../errors.js';
import type { TokenEndpoint } from './token-endpoint.js';

export interface TokenRoutesDeps {
  readonly tokenEndpoint: Pick<TokenEndpoint, 'exchange'>;
}

/**
 * POST /token, mounted at the auth base. docs/reference/tokens-and-sessions.md "The token endpoint": form (application/x-www-form-urlencoded); any other
 * Content-Type (JSON included) is invalid_request before the body is read. Success and error answers
 * are never cached (RFC 6749 §5.1: `Cache-Control: no-store`, `Pragma: no-cache`); errors go through
 * the OAuth error mapper (`{ error, error_description }`, WWW-Authenticate for a failed Basic attempt).
 * Browser apps on any origin may call it (no cookies are involved; see http/any-origin.ts).
 */
export function tokenRoutes(deps: TokenRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    await acceptOnlyFormBodies(app);
    app.setErrorHandler(oauthErrorHandler);
    // Public clients (single-page apps) redeem codes and refresh from the browser.
    allowAnyOrigin(app, { paths: ['/token'], methods: ['POST'] });

    app.post(
      '/token',
      {
        onRequest: async (request) => {
          if (mediaType(request) !== FORM_MEDIA_TYPE) {
            throw oauthError.invalidRequest(
              `The token endpoint accepts only ${FORM_MEDIA_TYPE} request bodies.`,
            );
          }
        },
      },
      async (request, reply) => {
        const body = await deps.tokenEndpoint.exchange({
          body: request.body,
          authorizationHeader: request.headers.authorization,
          userAgent: request.headers['user-agent'],
          ipAddress: request.ip,
        });
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
      },
    );
  };
}
