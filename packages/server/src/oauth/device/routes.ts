import type { FastifyPluginAsync } from 'fastify';
import { allowAnyOrigin } from '../../http/any-origin.js';
import { acceptOnlyFormBodies, FORM_MEDIA_TYPE, mediaType } from '../../http/form-body.js';
import { oauthErrorHandler } from '../../http/oauth-error-handler.js';
import { oauthError } from '../errors.js';
import type { DeviceAuthorizationEndpoint } from './device-authorization-endpoint.js';

export interface DeviceAuthorizationRoutesDeps {
  readonly endpoint: Pick<DeviceAuthorizationEndpoint, 'authorize'>;
}

/**
 * POST /device_authorization, mounted at the auth base: like /token, `application/x-www-form-urlencoded`
 * only (anything else is invalid_request before the body is read), answers never cached (RFC 8628 §3.2
 * shows `Cache-Control: no-store`), OAuth error bodies, and callable from browser apps on any origin (no
 * cookies are involved).
 */
export function deviceAuthorizationRoutes(deps: DeviceAuthorizationRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    await acceptOnlyFormBodies(app);
    app.setErrorHandler(oauthErrorHandler);
    allowAnyOrigin(app, { paths: ['/device_authorization'], methods: ['POST'] });

    app.post(
      '/device_authorization',
      {
        onRequest: async (request) => {
          if (mediaType(request) !== FORM_MEDIA_TYPE) {
            throw oauthError.invalidRequest(
              `The device authorization endpoint accepts only ${FORM_MEDIA_TYPE} request bodies.`,
            );
          }
        },
      },
      async (request, reply) => {
        const body = await deps.endpoint.authorize({
          body: request.body,
          authorizationHeader: request.headers.authorization,
          ipAddress: request.ip,
        });
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
      },
    );
  };
}
