import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAuthError } from '../oauth/errors.js';
import { logIfUnexpected, mapError } from './errors.js';

/**
 * The OAuth surface's error mapper: `{ error, error_description }`, never cached (RFC 6749 §5.2). An
 * `OAuthError` also brings its `WWW-Authenticate` challenge (401 invalid_client after a failed HTTP Basic
 * attempt, RFC 6749 §5.2) and, for device polling, the updated `interval` (RFC 8628 §3.5).
 */
export function oauthErrorHandler(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const mapped = mapError(error);
  logIfUnexpected(request, error, mapped);
  const body: Record<string, unknown> = { error: mapped.code, error_description: mapped.message };
  if (error instanceof OAuthError) {
    if (error.wwwAuthenticate !== undefined) reply.header('www-authenticate', error.wwwAuthenticate);
    if (error.interval !== undefined) body.interval = error.interval;
  }
  if (mapped.retryAfterSeconds !== undefined) reply.header('retry-after', String(mapped.retryAfterSeconds));
  return reply
    .code(mapped.status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send(body);
}
