import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicAuth, form, oauthGiven, type OAuthGiven } from '../../test-support/oauth-http.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../../test-support/test-svc.js';

const ENDPOINT = '/svc/auth/device_authorization';
const ISSUER = `${TEST_ORIGIN}/svc/auth`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const FILES = 'https://files.example.com';

/** Asserts an OAuth error answer: status, code, never cached. */
function expectOAuthError(response: LightMyRequestResponse, status: number, error: string): void {
  expect(response.statusCode).toBe(status);
  expect(response.json<{ error: string }>().error).toBe(error);
  expect(response.headers['cache-control']).toBe('no-store');
}

describe('POST /device_authorization', () => {
  let t: TestSvc;
  let given: OAuthGiven;
  let publicClient: string;
  let confidential: { clientId: string; secret: string };
  let postClient: { clientId: string; secret: string };

  beforeAll(async () => {
    t = await createTestSvc();
    given = await oauthGiven(t);
    publicClient = (await given.client({ allowDeviceAuthorization: true, allowedResources: [FILES] }))
      .clientId;
    const basic = await given.client({
      allowDeviceAuthorization: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
    });
    confidential = { clientId: basic.clientId, secret: basic.clientSecret ?? '' };
    const post = await given.client({
      allowDeviceAuthorization: true,
      tokenEndpointAuthMethod: 'client_secret_post',
    });
    postClient = { clientId: post.clientId, secret: post.clientSecret ?? '' };
  });
  afterAll(async () => {
    await t.close();
  });

  const send = (
    params: Record<string, string | readonly string[] | undefined>,
    headers: Record<string, string> = {},
  ) =>
    given.inject({ method: 'POST', url: ENDPOINT, headers: { ...FORM, ...headers }, payload: form(params) });
  const raw = (options: InjectOptions) => given.inject({ method: 'POST', url: ENDPOINT, ...options });

  it('answers RFC 8628 §3.2 for a public client: the six fields, no-store, callable from any origin', async () => {
    const response = await send({
      client_id: publicClient,
      scope: 'openid profile unknown',
      resource: FILES,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'cache-control': 'no-store',
      pragma: 'no-cache',
      'access-control-allow-origin': '*',
    });
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual([
      'device_code',
      'expires_in',
      'interval',
      'user_code',
      'verification_uri',
      'verification_uri_complete',
    ]);
    expect(body).toMatchObject({
      device_code: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${ISSUER}/device`,
      expires_in: 900,
      interval: 5,
    });
    expect(body.verification_uri_complete).toBe(`${ISSUER}/device?user_code=${String(body.user_code)}`);
    expect(await t.svc.auth.resolveDeviceAuthorizationAsync(String(body.user_code))).toMatchObject({
      scopes: ['openid', 'profile'],
      resource: FILES,
      status: 'pending',
    });

    const preflight = await given.inject({
      method: 'OPTIONS',
      url: ENDPOINT,
      headers: { origin: 'https://tv.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('accepts only application/x-www-form-urlencoded bodies', async () => {
    const payload = form({ client_id: publicClient });
    for (const options of [
      {
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ client_id: publicClient }),
      },
      { headers: { 'content-type': 'text/plain' }, payload },
      { headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--' },
      {},
    ] satisfies InjectOptions[]) {
      expectOAuthError(await raw(options), 400, 'invalid_request');
    }
    const charset = await raw({
      headers: { 'content-type': `${FORM['content-type']}; charset=UTF-8` },
      payload,
    });
    expect(charset.statusCode).toBe(200);
  });

  it('confidential clients authenticate with their registered method', async () => {
    const viaBasic = await send(
      { scope: 'openid' },
      { authorization: basicAuth(confidential.clientId, confidential.secret) },
    );
    expect(viaBasic.statusCode).toBe(200);
    const viaPost = await send({ client_id: postClient.clientId, client_secret: postClient.secret });
    expect(viaPost.statusCode).toBe(200);

    const wrongSecret = await send({}, { authorization: basicAuth(confidential.clientId, 'wrong') });
    expectOAuthError(wrongSecret, 401, 'invalid_client');
    expect(wrongSecret.headers['www-authenticate']).toBe('Basic realm="svc"');
    // A confidential client naming itself without its secret, or with the other method.
    expectOAuthError(await send({ client_id: confidential.clientId }), 401, 'invalid_client');
    expectOAuthError(
      await send({ client_id: confidential.clientId, client_secret: confidential.secret }),
      401,
      'invalid_client',
    );
    // A public client that sends a secret proves nothing.
    expectOAuthError(
      await send({ client_id: publicClient, client_secret: 'anything' }),
      401,
      'invalid_client',
    );
  });

  it('unknown and missing clients are invalid_client; a client without the grant is unauthorized_client', async () => {
    expectOAuthError(await send({ client_id: 'nobody' }), 401, 'invalid_client');
    expectOAuthError(await send({ scope: 'openid' }), 401, 'invalid_client');
    const plain = (await given.client()).clientId;
    const refused = await send({ client_id: plain });
    expectOAuthError(refused, 400, 'unauthorized_client');
    expect(refused.json()).toEqual({
      error: 'unauthorized_client',
      error_description: 'This client is not allowed to use the device authorization grant.',
    });
  });

  it('a resource the client may not have is invalid_target', async () => {
    for (const resource of [
      'https://elsewhere.example.com',
      'relative/path',
      `${FILES}#fragment`,
      [FILES, FILES],
    ]) {
      expectOAuthError(await send({ client_id: publicClient, resource }), 400, 'invalid_target');
    }
  });

  it('malformed input is a 4xx OAuth error, never a 5xx', async () => {
    const cases: InjectOptions[] = [
      { headers: FORM, payload: form({ client_id: [publicClient, publicClient] }) },
      { headers: FORM, payload: form({ client_id: publicClient, scope: ['openid', 'email'] }) },
      { headers: FORM, payload: form({ client_id: `a\u0000b` }) },
      { headers: FORM, payload: form({ client_id: 'x'.repeat(5000) }) },
      { headers: FORM, payload: '%%%&&&==' },
      { headers: FORM, payload: 'client_id[]=a&client_id[x]=b' },
      { headers: { ...FORM, authorization: 'Basic !!!' }, payload: '' },
      { headers: { ...FORM, authorization: 'Bearer abc' }, payload: form({ client_id: publicClient }) },
      { headers: FORM, payload: 'a'.repeat(300 * 1024) },
    ];
    for (const options of cases) {
      const response = await raw(options);
      expect(response.statusCode, JSON.stringify(options.payload).slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
    // A scope of unprintable junk is dropped like an unknown scope, not refused.
    const junk = await send({ client_id: publicClient, scope: '\u0007 "quoted" openid' });
    expect(junk.statusCode).toBe(200);
  });
});

describe('POST /device_authorization: the start rate limit', () => {
  let t: TestSvc;
  let given: OAuthGiven;
  beforeAll(async () => {
    t = await createTestSvc('sqlite', { rateLimits: { deviceStart: { identifier: { limit: 2 } } } });
    given = await oauthGiven(t);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers slow_down once a client has started too many requests from one address', async () => {
    const clientId = (await given.client({ allowDeviceAuthorization: true })).clientId;
    const start = (remoteAddress: string) =>
      given.inject({
        method: 'POST',
        url: ENDPOINT,
        headers: FORM,
        payload: form({ client_id: clientId }),
        remoteAddress,
      });
    expect((await start('192.0.2.1')).statusCode).toBe(200);
    expect((await start('192.0.2.1')).statusCode).toBe(200);
    const limited = await start('192.0.2.1');
    expectOAuthError(limited, 400, 'slow_down');
    expect((await start('192.0.2.2')).statusCode).toBe(200);
  });
});
