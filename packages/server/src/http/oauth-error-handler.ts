import type { FastifyReply, FastifyRequest } from 'fastify';
import { logIfUnexpected, mapError } from './errors.js';

/** The OAuth surface's error mapper: `{ error, error_description }`, never cached (RFC 6749 §5.2). */
export function oauthErrorHandler(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const mapped = mapError(error);
  logIfUnexpected(request, error, mapped);
  return reply
    .code(mapped.status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error: mapped.code, error_description: mapped.message });
}
