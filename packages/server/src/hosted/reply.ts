/**
 * The part of a reply the hosted helpers use. Fastify's reply fits; the structural type keeps this
 * module free of Fastify (layering rule 1), so every hosted route file can share these helpers.
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
