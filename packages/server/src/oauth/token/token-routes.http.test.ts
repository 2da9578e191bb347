import fastifyFormbody from '@fastify/formbody';
import Fastify, { type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { form, oauthGiven, REDIRECT_URI, type OAuthGiven } from '../../test-support/oauth-http.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';
import { tokenRoutes } from './token-routes.js';

const TOKEN = '/svc/auth/token';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('POST /token: the request itself', () => {
  let t: TestSvc;
  let given: OAuthGiven;
  let clientId: string;
  let valid: { code: string; verifier: string };
  beforeAll(async () => {
    t = await createTestSvc();
    given = await oauthGiven(t);
    const user = await given.user();
    clientId = (await given.client()).clientId;
    valid = await given.code({ clientId, userId: user.id });
  });
  afterAll(async () => {
    await given.app.close();
    await t.close();
  });

  const codeParams = () => ({
    grant_type: 'authorization_code',
    code: valid.code,
    code_verifier: valid.verifier,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
  });

  const send = (options: InjectOptions) => given.inject({ method: 'POST', url: TOKEN, ...options });

  const expectOAuthError = (
    response: Awaited<ReturnType<typeof send>>,
    status: number,
    error: string,
    description?: RegExp,
  ) => {
    expect(response.statusCode).toBe(status);
    const body = response.json<{ error: string; error_description: string }>();
    expect(body.error).toBe(error);
    if (description !== undefined) expect(body.error_description).toMatch(description);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
  };

  it('accepts only application/x-www-form-urlencoded (a charset parameter is fine)', async () => {
    const json = await send({
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(codeParams()),
    });
    expectOAuthError(json, 400, 'invalid_request', /application\/x-www-form-urlencoded/);
    expectOAuthError(
      await send({ headers: { 'content-type': 'text/plain' }, payload: form(codeParams()) }),
      400,
      'invalid_request',
    );
    expectOAuthError(
      await send({ headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' }),
      400,
      'invalid_request',
    );
    expectOAuthError(await send({}), 400, 'invalid_request');

    // The same request as a form works (and consumes the code, so this runs last in this test).
    const ok = await send({
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      payload: form(codeParams()),
    });
    expect(ok.statusCode).toBe(200);
  });

  it('a repeated parameter is invalid_request (resource excepted, which is checked as a target)', async () => {
    const user = await given.user();
    const code = await given.code({ clientId, userId: user.id });
    const params = { ...codeParams(), code: code.code, code_verifier: code.verifier };
    for (const name of [
      'grant_type',
      'code',
      'code_verifier',
      'redirect_uri',
      'client_id',
      'unknown_extra',
    ]) {
      const value = (params as Record<string, string>)[name] ?? 'x';
      const response = await given.token({ ...params, [name]: [value, value] });
      expectOAuthError(
        response,
        400,
        'invalid_request',
        new RegExp(`${name} parameter must not be repeated`),
      );
    }
    // Nothing above consumed the code.
    expect((await given.token(params)).statusCode).toBe(200);
  });

  it('grant_type: missing is invalid_request; unknown, password and implicit are unsupported_grant_type', async () => {
    expectOAuthError(await given.token({ client_id: clientId }), 400, 'invalid_request', /grant_type/);
    expectOAuthError(await given.token({ grant_type: '', client_id: clientId }), 400, 'invalid_request');
    for (const grantType of [
      'password',
      'implicit',
      'AUTHORIZATION_CODE',
      'urn:ietf:params:oauth:grant-type:jwt-bearer',
    ]) {
      expectOAuthError(
        await given.token({ grant_type: grantType, client_id: clientId }),
        400,
        'unsupported_grant_type',
      );
    }
  });

  it('browser apps on any origin may call it: preflight, and the header on answers and errors', async () => {
    const preflight = await given.inject({
      method: 'OPTIONS',
      url: TOKEN,
      headers: { origin: 'https://spa.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'authorization, content-type',
    });
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    const error = await given.token({ grant_type: 'password' }, { origin: 'https://spa.example' });
    expect(error.statusCode).toBe(400);
    expect(error.headers['access-control-allow-origin']).toBe('*');
  });

  it('GET /token is not a route', async () => {
    const response = await given.inject({ method: 'GET', url: TOKEN });
    expect(response.statusCode).toBe(404);
  });

  describe('malformed input is a 4xx with an OAuth error body, never a 5xx', () => {
    const huge = 'a'.repeat(300 * 1024);
    const cases: [string, InjectOptions][] = [
      ['empty form', { headers: FORM, payload: '' }],
      ['garbage form', { headers: FORM, payload: '&&&===&%%%' }],
      ['broken percent-encoding', { headers: FORM, payload: 'grant_type=%E0%A4%A&code=%ZZ' }],
      ['non-UTF-8 bytes', { headers: FORM, payload: Buffer.from([0x67, 0x3d, 0xff, 0xfe, 0x26]) }],
      ['NUL in values', { headers: FORM, payload: 'grant_type=authorization_code&code=%00&client_id=%00' }],
      [
        '__proto__ parameter',
        { headers: FORM, payload: '__proto__=x&constructor=y&grant_type=refresh_token' },
      ],
      ['huge code', { headers: FORM, payload: form({ ...codeParamsStatic(), code: 'c'.repeat(100_000) }) }],
      [
        'huge client_id',
        {
          headers: FORM,
          payload: form({ grant_type: 'client_credentials', client_id: 'x'.repeat(100_000) }),
        },
      ],
      ['body over the limit', { headers: FORM, payload: `grant_type=${huge}` }],
      ['JSON array', { headers: { 'content-type': 'application/json' }, payload: '[1,2]' }],
      ['broken JSON', { headers: { 'content-type': 'application/json' }, payload: '{' }],
      ['bad Content-Type', { headers: { 'content-type': '\u0000/\u0000' }, payload: 'a=b' }],
      [
        'Basic with garbage',
        {
          headers: { ...FORM, authorization: 'Basic !!!' },
          payload: form({ grant_type: 'client_credentials' }),
        },
      ],
      [
        'Basic without colon',
        {
          headers: { ...FORM, authorization: `Basic ${Buffer.from('abc').toString('base64')}` },
          payload: form({ grant_type: 'client_credentials' }),
        },
      ],
      [
        'Bearer at the token endpoint',
        {
          headers: { ...FORM, authorization: 'Bearer abc' },
          payload: form({ grant_type: 'refresh_token', refresh_token: 'x' }),
        },
      ],
      [
        'refresh with a huge token',
        { headers: FORM, payload: form({ grant_type: 'refresh_token', refresh_token: 'r'.repeat(100_000) }) },
      ],
      [
        'scope with control characters',
        {
          headers: FORM,
          payload: form({ grant_type: 'refresh_token', refresh_token: 'x', scope: '\u0001\u0002' }),
        },
      ],
      [
        'resource not a URI',
        {
          headers: FORM,
          payload: form({ grant_type: 'client_credentials', client_id: 'nobody', resource: '::' }),
        },
      ],
    ];

    it.each(cases)('%s', async (_name, options) => {
      const response = await send(options);
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.headers['cache-control']).toBe('no-store');
      const body = response.json<Record<string, unknown>>();
      expect(typeof body.error).toBe('string');
      expect(typeof body.error_description).toBe('string');
    });
  });
});

describe('POST /token in a host app', () => {
  it("reads forms with its own parser, and leaves the host's parsers alone", async () => {
    const host = Fastify();
    await host.register(fastifyFormbody, { parser: (raw) => ({ parsedByHost: raw }) });
    const seen: unknown[] = [];
    await host.register(
      tokenRoutes({
        tokenEndpoint: {
          exchange: async (request) => {
            seen.push(request.body);
            return { access_token: 'a', token_type: 'Bearer', expires_in: 1, scope: '' };
          },
        },
      }),
      { prefix: '/svc/auth' },
    );
    host.post('/host', async (request) => request.body);
    try {
      const token = await host.inject({
        method: 'POST',
        url: '/svc/auth/token',
        headers: FORM,
        payload: 'a=1&a=2',
      });
      expect(token.statusCode).toBe(200);
      expect(seen).toEqual([{ a: ['1', '2'] }]);
      const own = await host.inject({ method: 'POST', url: '/host', headers: FORM, payload: 'a=1' });
      expect(own.json()).toEqual({ parsedByHost: 'a=1' });
      const json = await host.inject({
        method: 'POST',
        url: '/host',
        headers: { 'content-type': 'application/json' },
        payload: '{"x":1}',
      });
      expect(json.json()).toEqual({ x: 1 });
    } finally {
      await host.close();
    }
  });
});

function codeParamsStatic() {
  return { grant_type: 'authorization_code', code_verifier: 'v'.repeat(43), client_id: 'web' };
}
