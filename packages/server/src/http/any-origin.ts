import type { FastifyInstance } from 'fastify';

export interface AnyOriginOptions {
  /** The routes of the plugin (relative to its prefix) that get a preflight answer. */
  readonly paths: readonly string[];
  /** The methods those routes serve. */
  readonly methods: readonly string[];
  /** Response headers a browser script may read (for example `WWW-Authenticate`). */
  readonly exposeHeaders?: readonly string[];
}

/** How long a browser may cache a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Lets browser apps on any origin call the routes of an encapsulated plugin (the token and userinfo
 * endpoints, which public clients such as single-page apps call directly). Safe with `*` because these
 * routes never read cookies: every call carries its own proof (a client_id, a code and its verifier, a
 * refresh token, a bearer token), and a wildcard origin never lets a browser send credentials. The
 * preflight allows `Authorization` (never covered by a wildcard) and `Content-Type`.
 */
export function allowAnyOrigin(app: FastifyInstance, options: AnyOriginOptions): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('access-control-allow-origin', '*');
    if (options.exposeHeaders !== undefined) {
      reply.header('access-control-expose-headers', options.exposeHeaders.join(', '));
    }
    return payload;
  });
  for (const path of options.paths) {
    app.options(path, async (_request, reply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', options.methods.join(', '))
        .header('access-control-allow-headers', 'authorization, content-type')
        .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
        .send(),
    );
  }
}
