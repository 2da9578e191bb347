import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHeadlessClient, type FetchLike } from './client.js';
import { SvcHeadlessError } from './errors.js';
import type { SvcHeadlessActionResult } from './types.js';

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

const VIEW: SvcHeadlessActionResult = {
  type: 'view',
  redirectUrl: null,
  viewModel: {
    view: 'svc',
    requestId: 'req_1',
    settings: { enabledCredentialTypes: ['password'] },
    providers: [],
    organizationSelection: null,
  },
};

/** A real HTTP server on a free port: each path answers a fixed status and body. */
const ANSWERS: Record<string, { status: number; type: string; body: string }> = {
  '/svc/auth/headless/start': { status: 200, type: 'application/json', body: JSON.stringify(VIEW) },
  '/svc/auth/headless/requests/req%2F1%20x': {
    status: 200,
    type: 'application/json',
    body: JSON.stringify(VIEW),
  },
  '/svc/auth/headless/password/login': {
    status: 400,
    type: 'application/json',
    body: JSON.stringify({ error: 'invalid_credentials', message: 'The email or password is not correct.' }),
  },
  '/svc/auth/headless/broken': { status: 502, type: 'text/plain', body: 'Bad Gateway' },
  '/svc/auth/headless/empty': { status: 500, type: 'text/plain', body: '' },
  '/svc/auth/headless/html': { status: 200, type: 'text/html', body: '<html></html>' },
  '/custom/base/start': { status: 200, type: 'application/json', body: JSON.stringify(VIEW) },
};

describe('createHeadlessClient', () => {
  let server: Server;
  let origin: string;
  let seen: Seen[];
  let inits: RequestInit[];
  /** The global fetch, observed: Node's fetch keeps no cookies, so `credentials` is checked on the init. */
  const observingFetch: FetchLike = (input, init) => {
    inits.push(init);
    return fetch(input, init);
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        const answer = ANSWERS[request.url ?? ''] ?? {
          status: 404,
          type: 'application/json',
          body: '{"error":"not_found"}',
        };
        response.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    seen = [];
    inits = [];
  });

  it('posts /start as JSON under the default base path, credentialed', async () => {
    const client = createHeadlessClient({ baseUrl: `${origin}/`, fetch: observingFetch });
    const body = {
      responseType: 'code',
      clientId: 'web',
      redirectUri: 'https://app.example.com/callback',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      codeChallengeMethod: 'S256',
      state: undefined,
      uiContext: { theme: 'dark' },
    } as const;
    expect(await client.start(body)).toEqual(VIEW);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request).toMatchObject({ method: 'POST', url: '/svc/auth/headless/start' });
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers.authorization).toBeUndefined();
    // undefined fields are left out, as JSON.stringify does.
    expect(JSON.parse(request?.body ?? '')).toEqual({
      responseType: 'code',
      clientId: 'web',
      redirectUri: 'https://app.example.com/callback',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      codeChallengeMethod: 'S256',
      uiContext: { theme: 'dark' },
    });
    expect(inits.map((init) => init.credentials)).toEqual(['include']);
  });

  it('gets a request by id, escaping the id into one path segment', async () => {
    const client = createHeadlessClient({ baseUrl: origin, fetch: observingFetch });
    expect(await client.getRequest('req/1 x')).toEqual(VIEW);
    expect(seen[0]).toMatchObject({
      method: 'GET',
      url: '/svc/auth/headless/requests/req%2F1%20x',
      body: '',
    });
    expect(seen[0]?.headers['content-type']).toBeUndefined();
    expect(inits[0]?.credentials).toBe('include');
  });

  it('honours a custom base path and uses the global fetch by default', async () => {
    const client = createHeadlessClient({ baseUrl: origin, basePath: 'custom/base/' });
    await client.submit('start', { requestId: 'req_1' });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/custom/base/start',
      body: '{"requestId":"req_1"}',
    });
  });

  it('maps a JSON error answer to SvcHeadlessError with status, body, code and message', async () => {
    const client = createHeadlessClient({ baseUrl: origin });
    const error = await client
      .submit('/password/login', { requestId: 'req_1', password: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcHeadlessError);
    expect(error).toMatchObject({
      name: 'SvcHeadlessError',
      status: 400,
      code: 'invalid_credentials',
      message: 'The email or password is not correct.',
      body: { error: 'invalid_credentials', message: 'The email or password is not correct.' },
    });
  });

  it('keeps a non-JSON error body as text, an empty one as null', async () => {
    const client = createHeadlessClient({ baseUrl: origin });
    await expect(client.submit('/broken', {})).rejects.toMatchObject({
      status: 502,
      body: 'Bad Gateway',
      code: undefined,
      message: 'The headless API answered 502.',
    });
    await expect(client.submit('/empty', {})).rejects.toMatchObject({ status: 500, body: null });
    await expect(client.submit('/nowhere', {})).rejects.toMatchObject({ status: 404, code: 'not_found' });
  });

  it('refuses a successful answer that is not JSON', async () => {
    const client = createHeadlessClient({ baseUrl: origin });
    await expect(client.submit('/html', {})).rejects.toMatchObject({ status: 200, body: '<html></html>' });
  });

  it('lets a network failure through as the fetch error itself', async () => {
    const client = createHeadlessClient({ baseUrl: 'http://127.0.0.1:1' });
    await expect(client.start({} as never)).rejects.toBeInstanceOf(TypeError);
  });
});
