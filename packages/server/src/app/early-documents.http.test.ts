import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SvcOptions } from '../config/options.js';
import { rawRequest } from '../test-support/raw-http.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const DOCUMENTS = [
  '/svc/auth/.well-known/oauth-authorization-server',
  '/svc/auth/.well-known/openid-configuration',
  '/svc/auth/.well-known/jwks.json',
  '/.well-known/oauth-authorization-server/svc/auth',
];
const COMPARED_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'etag',
  'access-control-allow-origin',
] as const;

interface Answer {
  readonly status: number;
  readonly headers: Partial<Record<(typeof COMPARED_HEADERS)[number], string | string[]>>;
  readonly body: string;
}

const compared = (headers: IncomingHttpHeaders | Record<string, unknown>): Answer['headers'] =>
  Object.fromEntries(
    COMPARED_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [
      name,
      String(headers[name]),
    ]),
  );

/** One request over a real socket, with the compared headers only. */
async function send(
  port: number,
  path: string,
  method: string,
  headers: Record<string, string>,
): Promise<Answer> {
  const answer = await rawRequest(port, path, method, headers);
  return { ...answer, headers: compared(answer.headers) };
}

describe('the standalone server answers its static documents before routing', () => {
  let t: TestSvc | undefined;
  let host: Server | undefined;
  afterEach(async () => {
    host?.closeAllConnections();
    await new Promise<void>((resolve) => (host === undefined ? resolve() : host.close(() => resolve())));
    host = undefined;
    await t?.close();
    t = undefined;
  });

  const listening = async (options: SvcOptions = {}) => {
    t = await createTestSvc('sqlite', options);
    await t.svc.app.listen({ port: 0, host: '127.0.0.1' });
    return { test: t, port: (t.svc.app.server.address() as AddressInfo).port };
  };

  it('with the bytes and headers its Fastify route sends, for a GET, a HEAD and a revalidation', async () => {
    const { test, port } = await listening();
    for (const path of DOCUMENTS) {
      const { etag } = compared((await test.svc.app.inject({ url: path })).headers);
      const cases: [string, Record<string, string>][] = [
        ['GET', {}],
        ['HEAD', {}],
        ['GET', { 'if-none-match': String(etag) }],
        ['GET', { 'if-none-match': '"stale"' }],
      ];
      for (const [method, headers] of cases) {
        const routed = await test.svc.app.inject({ method: method as 'GET' | 'HEAD', url: path, headers });
        const early = await send(port, path, method, headers);
        const label = `${method} ${path} ${JSON.stringify(headers)}`;
        expect(early, label).toEqual({
          status: routed.statusCode,
          headers: compared(routed.headers),
          body: routed.body,
        });
      }
    }
  });

  it("keeps Fastify's connection timeouts on the server it listens with", async () => {
    const { test } = await listening();
    // Fastify's defaults: 72 s of keep-alive, longer than the 60 s idle timeout of common load balancers.
    expect(test.svc.app.server.keepAliveTimeout).toBe(72_000);
    expect(test.svc.app.server.requestTimeout).toBe(0);
  });

  it('leaves them to Fastify while the access log is on, which has a line for every request', async () => {
    const lines: { msg: string; req?: { url: string } }[] = [];
    const { port } = await listening({
      accessLog: true,
      logStream: { write: (line) => void lines.push(JSON.parse(line) as { msg: string }) },
    });
    for (const path of DOCUMENTS) expect((await send(port, path, 'GET', {})).status).toBe(200);
    expect(lines.filter((line) => line.msg === 'request completed').map((line) => line.req?.url)).toEqual(
      DOCUMENTS,
    );
  });

  it('leaves them to Fastify once the app closes, whose 503 sends clients elsewhere', async () => {
    t = await createTestSvc('sqlite');
    const test = t;
    host = createServer(test.svc.handler);
    const server = host;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const jwks = DOCUMENTS[2] ?? '';
    expect((await send(port, jwks, 'GET', {})).status).toBe(200);
    await test.svc.app.close();
    expect((await send(port, jwks, 'GET', {})).status).toBe(503);
  });
});
