import type { RefusedAttempt } from '../../kernel/errors.js';

/**
 * The part of a reply the page helpers use. Fastify's reply fits; the structural type keeps this
 * module free of Fastify (layering rule 1), so every page route file can share these helpers.
 */
export interface HostedReply {
  code(statusCode: number): unknown;
  header(name: string, value: string): unknown;
  send(payload?: string): unknown;
}

/** Sends a rendered page as HTML. The security headers come from the hosted plugin's hook. */
export function sendPage<R extends HostedReply>(reply: R, page: string, status = 200): R {
  reply.code(status);
  reply.header('content-type', 'text/html; charset=utf-8');
  reply.send(page);
  return reply;
}

/**
 * A form's page: 200, or 400 when a post came back with an inline error, or 429 with `Retry-After` when
 * a limit on guessing refused the post (`refused`).
 */
export function sendFormPage<R extends HostedReply>(
  reply: R,
  page: string,
  withError: boolean,
  refused?: RefusedAttempt,
): R {
  if (refused === undefined) return sendPage(reply, page, withError ? 400 : 200);
  reply.header('retry-after', String(refused.retryAfterSeconds));
  return sendPage(reply, page, 429);
}

/**
 * Ends a form post with `303 See Other` (RFC 9110 §15.4.4: the browser follows with a GET, so a reload
 * never re-submits the form). Used for the final redirect to a client's registered redirect_uri and for
 * the next same-origin page alike; `location` must be a URL the caller has validated.
 */
export function redirectAfterPost<R extends HostedReply>(reply: R, location: string): R {
  reply.code(303);
  reply.header('location', location);
  reply.send();
  return reply;
}
