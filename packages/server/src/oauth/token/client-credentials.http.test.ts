import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeAboveStorage } from '../../test-support/databases.js';
import { basicAuth, oauthGiven, type OAuthGiven } from '../../test-support/oauth-http.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../../test-support/test-svc.js';

type Response = Awaited<ReturnType<OAuthGiven['token']>>;

describeAboveStorage('POST /token grant_type=client_credentials', (kind) => {
  let t: TestSvc;
  let given: OAuthGiven;
  beforeEach(async () => {
    t = await createTestSvc(kind);
    given = await oauthGiven(t);
  });
  afterEach(async () => {
    await given.app.close();
    await t.close();
  });

  const expectError = (response: Response, status: number, error: string): void => {
    expect({ status: response.statusCode, error: response.json<{ error: string }>().error }).toEqual({
      status,
      error,
    });
    expect(response.headers['cache-control']).toBe('no-store');
  };

  const machine = (body: Parameters<OAuthGiven['client']>[0] = {}) =>
    given.client({
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowClientCredentials: true,
      isFirstParty: false,
      allowedScopes: ['openid', 'offline_access', 'orders:read', 'orders:write'],
      ...body,
    });

  const grant = (
    client: { clientId: string; clientSecret?: string | undefined },
    params: Record<string, string | string[] | undefined> = {},
  ) =>
    given.token(
      { grant_type: 'client_credentials', ...params },
      { authorization: basicAuth(client.clientId, client.clientSecret ?? '') },
    );

  it('answers an access token only: no refresh token, no ID token, scope always present', async () => {
    const client = await machine();
    const response = await grant(client, { scope: 'orders:read' });

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'orders:read' });

    const token = body.access_token as string;
    expect(decodeProtectedHeader(token).typ).toBe('at+jwt');
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({
      iss: `${TEST_ORIGIN}/svc/auth`,
      sub: client.clientId,
      client_id: client.clientId,
      aud: client.audience,
      scope: 'orders:read',
    });
    expect(claims).not.toHaveProperty('sid');
    expect(claims.exp).toBe(Math.floor(t.clock.now() / 1000) + 900);
  });

  it('scope: silent intersection with the allow-list, never openid or offline_access', async () => {
    const client = await machine();
    const response = await grant(client, { scope: 'openid offline_access orders:write unknown orders:read' });
    expect(response.json()).toMatchObject({ scope: 'orders:write orders:read' });
    expect(response.json()).not.toHaveProperty('id_token');
    expect(response.json()).not.toHaveProperty('refresh_token');

    const none = await grant(client);
    expect(none.json()).toMatchObject({ scope: '' });
    expect(decodeJwt(none.json<{ access_token: string }>().access_token)).not.toHaveProperty('scope');
    expect((await grant(client, { scope: 'openid' })).json()).toMatchObject({ scope: '' });
  });

  it('resource: an allowed resource becomes the audience; any other is invalid_target', async () => {
    const resource = 'https://orders.example.com';
    const client = await machine({ allowedResources: [resource] });
    const ok = await grant(client, { resource });
    expect(decodeJwt(ok.json<{ access_token: string }>().access_token).aud).toBe(resource);
    expectError(await grant(client, { resource: 'https://evil.example.com' }), 400, 'invalid_target');
    expectError(await grant(client, { resource: 'not a uri' }), 400, 'invalid_target');
  });

  it('client_secret_post works for a client_secret_post client', async () => {
    const client = await machine({ tokenEndpointAuthMethod: 'client_secret_post' });
    const response = await given.token({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret ?? '',
    });
    expect(response.statusCode).toBe(200);
  });

  it('unauthorized_client for a confidential client without allowClientCredentials and for public clients', async () => {
    const notAllowed = await machine({ allowClientCredentials: false });
    expectError(await grant(notAllowed), 400, 'unauthorized_client');

    const spa = await given.client();
    expectError(
      await given.token({ grant_type: 'client_credentials', client_id: spa.clientId }),
      400,
      'unauthorized_client',
    );
  });

  it('invalid_client for a wrong secret or no credentials', async () => {
    const client = await machine();
    const wrong = await grant({ clientId: client.clientId, clientSecret: 'wrong' });
    expectError(wrong, 401, 'invalid_client');
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="svc"');
    expectError(await given.token({ grant_type: 'client_credentials' }), 401, 'invalid_client');
  });

  it('its tokens have no session: in-process validation answers null and userinfo refuses them', async () => {
    const client = await machine();
    const token = (await grant(client, { scope: 'orders:read' })).json<{ access_token: string }>()
      .access_token;
    expect(await t.svc.auth.validateAccessTokenAsync(token, client.audience)).toBeNull();
    const userinfo = await given.inject({
      method: 'GET',
      url: '/svc/auth/userinfo',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(userinfo.statusCode).toBe(401);
    expect(userinfo.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });
});
