import type { FastifyPluginAsync } from 'fastify';
import { allowAnyOrigin } from '../../../http/any-origin.js';
import { acceptJsonBodies } from '../../../http/json-body.js';
import { oauthErrorHandler } from '../../../http/oauth-error-handler.js';
import { oauthError } from '../../errors.js';
import type { ClientRegistration } from './client-registration.js';

export interface RegistrationRoutesDeps {
  readonly registration: Pick<ClientRegistration, 'register'>;
}

/** A registration is a few hundred bytes; twenty long redirect URIs and a full scope list fit in this. */
const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * POST /register (RFC 7591), mounted at the auth base only while registration is on: a JSON body,
 * answers never cached, OAuth error bodies (`error`, `error_description`), and callable from browser
 * apps on any origin, since it reads no cookie and grants nothing by itself.
 */
export function registrationRoutes(deps: RegistrationRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    acceptJsonBodies(app, {
      tooDeep: (message) => oauthError.invalidClientMetadata(message),
    });
    app.setErrorHandler(oauthErrorHandler);
    allowAnyOrigin(app, { paths: ['/register'], methods: ['POST'] });

    app.post('/register', { bodyLimit: BODY_LIMIT_BYTES }, async (request, reply) => {
      const body = await deps.registration.register(request.body, { ipAddress: request.ip });
      return reply.code(201).header('cache-control', 'no-store').header('pragma', 'no-cache').send(body);
    });
  };
}
