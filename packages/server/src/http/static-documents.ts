import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import type { StaticDocument } from '../kernel/static-document.js';
import { ifNoneMatchHits } from './conditional.js';

/** A JSON document kept in memory and served as it is: `current()` while fresh, else `load()` reads it. */
export interface StaticDocumentRoute {
  /** The route's path: relative to its plugin's prefix, or the whole path before routing. */
  readonly path: string;
  readonly cacheControl: string;
  current(): StaticDocument | undefined;
  load(): Promise<StaticDocument>;
}

/** The headers of every answer about a static document, the 304 included (RFC 9110 §15.4.5). */
function headersOf(doc: StaticDocument, cacheControl: string): Record<string, string> {
  return {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': cacheControl,
    etag: doc.etag,
    'access-control-allow-origin': '*',
  };
}

function send(request: FastifyRequest, reply: FastifyReply, answer: Answer): void {
  // Fastify sets the length of the body it sends.
  reply.headers(answer.notModified);
  if (ifNoneMatchHits(request.headers['if-none-match'], answer.doc.etag)) reply.code(304).send();
  else reply.send(answer.doc.body);
}

/**
 * The route for Fastify: answers from memory without a promise while the document is fresh; only a
 * request that finds it due waits, for one read shared with every other such request.
 */
export function staticDocumentHandler(route: StaticDocumentRoute): RouteHandlerMethod {
  const answer = answerOf(route);
  return (request, reply) => {
    const doc = route.current();
    if (doc !== undefined) {
      send(request, reply, answer(doc));
      return;
    }
    return route.load().then((loaded) => send(request, reply, answer(loaded)));
  };
}

/** Answers a raw request when it can: true when it did, false to leave the request to the next listener. */
export type EarlyAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

/**
 * Answers a GET or HEAD of a fresh static document before Fastify sees the request, with the bytes and
 * headers its route would send: routing, hooks and the per-request logger cost a JWKS request more than
 * the document itself (docs/decisions/http-static-documents-before-routing.md). Anything else (another
 * method, a query string, a document due to be read again, a server closing) is left to Fastify.
 */
export function answerStaticDocuments(
  routes: readonly StaticDocumentRoute[],
  isClosing: () => boolean,
): EarlyAnswer {
  const byPath = new Map(routes.map((route) => [route.path, { route, answer: answerOf(route) }]));
  return (request, response) => {
    const entry = request.url === undefined ? undefined : byPath.get(request.url);
    if (entry === undefined || (request.method !== 'GET' && request.method !== 'HEAD') || isClosing()) {
      return false;
    }
    const doc = entry.route.current();
    if (doc === undefined) return false;
    const answer = entry.answer(doc);
    if (ifNoneMatchHits(request.headers['if-none-match'], doc.etag)) {
      response.writeHead(304, answer.notModified).end();
    } else {
      // A HEAD gets the length and no body: Node leaves the body out of the answer to a HEAD.
      response.writeHead(200, answer.ok).end(doc.body);
    }
    return true;
  };
}

interface Answer {
  readonly doc: StaticDocument;
  readonly ok: Record<string, string>;
  readonly notModified: Record<string, string>;
}

/** The headers of the route's current document, made again only when the document changes. */
function answerOf(route: StaticDocumentRoute): (doc: StaticDocument) => Answer {
  let last: Answer | undefined;
  return (doc) => {
    if (last?.doc !== doc) {
      const notModified = headersOf(doc, route.cacheControl);
      last = { doc, notModified, ok: { ...notModified, 'content-length': String(doc.body.length) } };
    }
    return last;
  };
}
