import fastifyFormbody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The media type of OAuth request bodies (RFC 6749 §3.2, RFC 6750 §2.2). */
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/**
 * Makes `app` (an encapsulated plugin) parse `application/x-www-form-urlencoded` bodies and nothing
 * else. Any parser the parent scope has (JSON, a host's own form parser with nested objects) is
 * removed first, so that the OAuth routes always see the same shape: one string per parameter and an
 * array when a parameter is repeated (which the routes refuse).
 */
export async function acceptOnlyFormBodies(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  await app.register(fastifyFormbody);
}

/** The request's media type without parameters, lower-cased; undefined when there is no Content-Type. */
export function mediaType(request: FastifyRequest): string | undefined {
  const header = request.headers['content-type'];
  if (header === undefined) return undefined;
  return (header.split(';', 1)[0] ?? '').trim().toLowerCase();
}

/** True when the request announces a body (RFC 9112 §6.3: Content-Length above 0, or Transfer-Encoding). */
export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
