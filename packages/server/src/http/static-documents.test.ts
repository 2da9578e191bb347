import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { staticDocument, type StaticDocument } from '../kernel/static-document.js';
import { rawRequest } from '../test-support/raw-http.js';
import { answerStaticDocuments } from './static-documents.js';

const PATH = '/svc/auth/.well-known/jwks.json';
const CACHE_CONTROL = 'public, max-age=300, must-revalidate';

describe('static documents answered before routing', () => {
  let server: Server;
  let port: number;
  let current: StaticDocument | undefined;
  let closing = false;

  beforeAll(async () => {
    const answerEarly = answerStaticDocuments(
      [
        {
          path: PATH,
          cacheControl: CACHE_CONTROL,
          current: () => current,
          load: () => Promise.reject(new Error('never loaded before routing')),
        },
      ],
      () => closing,
    );
    // What the early answer leaves alone reaches this stand-in for Fastify.
    server = createServer((request, response) => {
      if (!answerEarly(request, response)) response.writeHead(418).end('routed');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    current = staticDocument({ keys: [{ kid: 'one' }] });
    closing = false;
  });

  const send = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
    rawRequest(port, path, method, headers);

  it('answers a GET with the bytes, their length, the entity tag and the caching headers', async () => {
    const doc = current as StaticDocument;
    const answer = await send(PATH);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(doc.body.toString());
    expect(answer.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(doc.body.length),
      'cache-control': CACHE_CONTROL,
      etag: doc.etag,
      'access-control-allow-origin': '*',
    });
  });

  it('answers a HEAD with the headers of a GET and no body', async () => {
    const answer = await send(PATH, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('');
    expect(answer.headers['content-length']).toBe(String(current?.body.length));
    expect(answer.headers.etag).toBe(current?.etag);
  });

  it('answers a matching If-None-Match with a 304 that keeps the entity tag and caching headers', async () => {
    const etag = current?.etag ?? '';
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const answer = await send(PATH, 'GET', { 'if-none-match': ifNoneMatch });
      expect(answer.status, ifNoneMatch).toBe(304);
      expect(answer.body).toBe('');
      expect(answer.headers).toMatchObject({ etag, 'cache-control': CACHE_CONTROL });
    }
    expect((await send(PATH, 'GET', { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('serves a changed document with its own entity tag at once', async () => {
    const before = (await send(PATH)).headers.etag;
    current = staticDocument({ keys: [{ kid: 'one' }, { kid: 'two' }] });
    const after = await send(PATH);
    expect(after.headers.etag).toBe(current.etag);
    expect(after.headers.etag).not.toBe(before);
    expect(after.headers['content-length']).toBe(String(current.body.length));
    expect(JSON.parse(after.body)).toEqual({ keys: [{ kid: 'one' }, { kid: 'two' }] });
  });

  it('leaves other methods, other paths, query strings, a due document and a closing server to routing', async () => {
    expect((await send(PATH, 'POST')).status).toBe(418);
    expect((await send(PATH, 'OPTIONS')).status).toBe(418);
    expect((await send(`${PATH}?fresh=1`)).status).toBe(418);
    expect((await send(`${PATH}/`)).status).toBe(418);
    expect((await send('/svc/auth/.well-known/JWKS.json')).status).toBe(418);
    current = undefined;
    expect((await send(PATH)).status).toBe(418);
    current = staticDocument({ keys: [] });
    closing = true;
    expect((await send(PATH)).status).toBe(418);
    closing = false;
    expect((await send(PATH)).status).toBe(200);
  });
});
