import type { FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatchHits } from '../conditional.js';
import { HOSTED_CSS, HOSTED_CSS_HASH } from './styles.js';

const STYLESHEET_ETAG = `"${HOSTED_CSS_HASH}"`;

/**
 * The handler of `GET STYLESHEET_PATH` on a surface of server-rendered pages. The path carries the
 * content hash, so the file never changes under it: it is cached for a year, and revalidated by ETag.
 */
export async function sendStylesheet(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('etag', STYLESHEET_ETAG)
    .header('content-type', 'text/css; charset=utf-8');
  if (ifNoneMatchHits(request.headers['if-none-match'], STYLESHEET_ETAG)) return reply.code(304).send();
  return reply.send(HOSTED_CSS);
}
