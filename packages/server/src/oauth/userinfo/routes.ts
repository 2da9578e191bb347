import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { allowAnyOrigin } from '../../http/any-origin.js';
import { acceptOnlyFormBodies, FORM_MEDIA_TYPE, hasBody, mediaType } from '../../http/form-body.js';
import { oauthErrorHandler } from '../../http/oauth-error-handler.js';
import { oauthError } from '../errors.js';
import { bearerChallenge } from './bearer.js';
import type { UserinfoOutcome, UserinfoService } from './userinfo-service.js';

export interface UserinfoRoutesDeps {
  readonly userinfo: Pick<UserinfoService, 'claims'>;
}

const FORM_ONLY = `A userinfo POST body must be ${FORM_MEDIA_TYPE}.`;

/**
 * GET and POST /userinfo, mounted at the auth base only while OpenID provider mode and
 * EnableUserInfoEndpoint are both on (see `isUserinfoMapped`). The token comes in `Authorization:
 * Bearer` (both methods) or, on POST, the `access_token` form field; the service decides the answer and
 * this route only writes it, never cached.
 */
export function userinfoRoutes(deps: UserinfoRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    await acceptOnlyFormBodies(app);
    app.setErrorHandler(oauthErrorHandler);
    // Single-page apps call userinfo from the browser and need to read the Bearer challenge.
    allowAnyOrigin(app, {
      paths: ['/userinfo'],
      methods: ['GET', 'POST'],
      exposeHeaders: ['www-authenticate'],
    });

    app.get('/userinfo', async (request, reply) =>
      send(reply, await deps.userinfo.claims({ authorizationHeader: request.headers.authorization })),
    );

    app.post(
      '/userinfo',
      {
        onRequest: async (request) => {
          // A POST may carry no body at all (the token in the header); a body must be a form.
          const type = mediaType(request);
          if ((type !== undefined || hasBody(request)) && type !== FORM_MEDIA_TYPE) {
            throw oauthError.invalidRequest(FORM_ONLY, {
              wwwAuthenticate: bearerChallenge({ code: 'invalid_request', description: FORM_ONLY }),
            });
          }
        },
      },
      async (request, reply) => {
        const form = request.body as Readonly<Record<string, string | string[] | undefined>> | undefined;
        return send(
          reply,
          await deps.userinfo.claims({
            authorizationHeader: request.headers.authorization,
            formAccessToken: form?.access_token,
          }),
        );
      },
    );
  };
}

function send(reply: FastifyReply, outcome: UserinfoOutcome): FastifyReply {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  if (outcome.kind === 'claims') return reply.send(outcome.claims);
  reply.code(outcome.status).header('www-authenticate', outcome.wwwAuthenticate);
  return outcome.error === null
    ? reply.send()
    : reply.send({ error: outcome.error.code, error_description: outcome.error.description });
}
