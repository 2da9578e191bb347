import type { FastifyInstance, FastifySchema } from 'fastify';

/**
 * Keeps the routes of `instance` and its children out of a host app's OpenAPI description:
 * `@fastify/swagger` (and what is built on it) leaves out a route whose schema says `hide: true`. Svc's
 * endpoints are described by its discovery documents (RFC 8414, OpenID Connect Discovery), and its
 * operator routes are no interface of the host's (docs/reference/configuration.md "Embedding").
 */
export function hideFromOpenApi(instance: FastifyInstance): void {
  instance.addHook('onRoute', (route) => {
    const schema: FastifySchema & { readonly hide: true } = { ...route.schema, hide: true };
    route.schema = schema;
  });
}
