import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  basicAuth,
  expectedAtHash,
  oauthGiven,
  REDIRECT_URI,
  type OAuthGiven,
} from '../../test-support/oauth-http.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../../test-support/test-svc.js';

const ISSUER = `${TEST_ORIGIN}/svc/auth`;

describeAboveStorage('POST /token grant_type=authorization_code', (kind) => {
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

  const exchange = (
    code: { code: string; verifier: string },
    clientId: string,
    extra: Record<string, string | string[]> = {},
    headers: Record<string, string> = {},
  ) =>
    given.token(
      {
        grant_type: 'authorization_code',
        code: code.code,
        code_verifier: code.verifier,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        ...extra,
      },
      headers,
    );

  const expectError = (
    response: Awaited<ReturnType<OAuthGiven['token']>>,
    status: number,
    error: string,
  ): void => {
    expect({ status: response.statusCode, error: response.json<{ error: string }>().error }).toEqual({
      status,
      error,
    });
    expect(typeof response.json<{ error_description: unknown }>().error_description).toBe('string');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
  };

  it('a public client redeems a PKCE code: access, refresh and ID token, scope echoed, never cached', async () => {
    const user = await given.user({ displayName: 'Ann Example', email: 'ann@example.com' });
    const client = await given.client();
    const code = await given.code({ clientId: client.clientId, userId: user.id, nonce: 'n-0S6_WzA2Mj' });

    const response = await exchange(code, client.clientId);

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    const body = response.json<Record<string, unknown>>();
    expect(Object.keys(body).sort()).toEqual(
      ['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type'].sort(),
    );
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 900, scope: 'openid profile email' });

    const access = decodeJwt(body.access_token as string);
    expect(decodeProtectedHeader(body.access_token as string).typ).toBe('at+jwt');
    expect(access).toMatchObject({
      iss: ISSUER,
      sub: user.id,
      aud: client.audience,
      client_id: client.clientId,
      scope: 'openid profile email',
    });
    expect(typeof access.sid).toBe('string');

    const id = decodeJwt(body.id_token as string);
    expect(id).toMatchObject({
      iss: ISSUER,
      sub: user.id,
      aud: client.clientId,
      nonce: 'n-0S6_WzA2Mj',
      amr: ['pwd'],
      at_hash: expectedAtHash(body.access_token as string),
      name: 'Ann Example',
      email: 'ann@example.com',
      sid: access.sid,
    });
    expect(id.org_id).toBeUndefined();
  });

  it('without openid there is no id_token field at all, and an empty grant is scope ""', async () => {
    const user = await given.user();
    const client = await given.client();
    const profileOnly = await exchange(
      await given.code({ clientId: client.clientId, userId: user.id, scopes: ['profile'] }),
      client.clientId,
    );
    expect(profileOnly.statusCode).toBe(200);
    expect(profileOnly.json()).not.toHaveProperty('id_token');
    expect(profileOnly.json()).toMatchObject({ scope: 'profile' });
    expect(profileOnly.body).not.toContain('null');

    const empty = await exchange(
      await given.code({ clientId: client.clientId, userId: user.id, scopes: [] }),
      client.clientId,
    );
    expect(empty.json()).toMatchObject({ scope: '' });
    expect(empty.json()).not.toHaveProperty('id_token');
    expect(decodeJwt(empty.json<{ access_token: string }>().access_token)).not.toHaveProperty('scope');
  });

  it('an organization-scoped code carries org_id in the access and ID tokens', async () => {
    const user = await given.user();
    const organizationId = await given.organizationOf(user.id);
    const client = await given.client();
    const response = await exchange(
      await given.code({ clientId: client.clientId, userId: user.id, organizationId }),
      client.clientId,
    );
    const body = response.json<{ access_token: string; id_token: string }>();
    expect(decodeJwt(body.access_token).org_id).toBe(organizationId);
    expect(decodeJwt(body.id_token).org_id).toBe(organizationId);
  });

  it('confidential clients authenticate with the method they registered: client_secret_basic', async () => {
    const user = await given.user();
    const client = await given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    const secret = client.clientSecret ?? '';
    const code = await given.code({ clientId: client.clientId, userId: user.id });
    const { client_id: _omit, ...withoutClientId } = {
      client_id: client.clientId,
      grant_type: 'authorization_code',
      code: code.code,
      code_verifier: code.verifier,
      redirect_uri: REDIRECT_URI,
    };

    // The secret in the body is not the registered method.
    expectError(await exchange(code, client.clientId, { client_secret: secret }), 401, 'invalid_client');
    // The client_id alone is no authentication for a confidential client.
    expectError(await exchange(code, client.clientId), 401, 'invalid_client');
    // A wrong secret over Basic: 401 with the Basic challenge (RFC 6749 §5.2).
    const wrong = await given.token(withoutClientId, { authorization: basicAuth(client.clientId, 'wrong') });
    expectError(wrong, 401, 'invalid_client');
    expect(wrong.headers['www-authenticate']).toBe('Basic realm="svc"');

    const ok = await given.token(withoutClientId, { authorization: basicAuth(client.clientId, secret) });
    expect(ok.statusCode).toBe(200);
  });

  it('confidential clients authenticate with the method they registered: client_secret_post', async () => {
    const user = await given.user();
    const client = await given.client({ tokenEndpointAuthMethod: 'client_secret_post' });
    const secret = client.clientSecret ?? '';
    const code = await given.code({ clientId: client.clientId, userId: user.id });

    const viaBasic = await exchange(
      code,
      client.clientId,
      {},
      { authorization: basicAuth(client.clientId, secret) },
    );
    expectError(viaBasic, 401, 'invalid_client');
    const wrong = await exchange(code, client.clientId, { client_secret: 'wrong' });
    expectError(wrong, 401, 'invalid_client');
    expect(wrong.headers['www-authenticate']).toBeUndefined();

    expect((await exchange(code, client.clientId, { client_secret: secret })).statusCode).toBe(200);
  });

  it('a public client must not authenticate, and must name itself', async () => {
    const user = await given.user();
    const client = await given.client();
    const code = await given.code({ clientId: client.clientId, userId: user.id });
    expectError(await exchange(code, client.clientId, { client_secret: 'anything' }), 401, 'invalid_client');
    expectError(
      await given.token({ grant_type: 'authorization_code', code: code.code, code_verifier: code.verifier }),
      401,
      'invalid_client',
    );
    // Neither mistake burned the code.
    expect((await exchange(code, client.clientId)).statusCode).toBe(200);
  });

  it('a code issued to another client is invalid_grant', async () => {
    const user = await given.user();
    const owner = await given.client();
    const other = await given.client();
    const code = await given.code({ clientId: owner.clientId, userId: user.id });
    expectError(await exchange(code, other.clientId), 400, 'invalid_grant');
    expect((await exchange(code, owner.clientId)).statusCode).toBe(200);
  });

  it('requires code; checks code_verifier (43-128 unreserved characters, matching) and redirect_uri', async () => {
    const user = await given.user();
    const client = await given.client();
    const code = await given.code({ clientId: client.clientId, userId: user.id });
    const base = { grant_type: 'authorization_code', client_id: client.clientId, redirect_uri: REDIRECT_URI };

    expectError(await given.token({ ...base, code_verifier: code.verifier }), 400, 'invalid_request');
    expectError(await given.token({ ...base, code: code.code }), 400, 'invalid_request');
    expectError(
      await exchange(code, client.clientId, { code_verifier: 'a'.repeat(42) }),
      400,
      'invalid_request',
    );
    expectError(
      await exchange(code, client.clientId, { code_verifier: 'a'.repeat(129) }),
      400,
      'invalid_request',
    );
    expectError(
      await exchange(code, client.clientId, { code_verifier: `${'a'.repeat(42)}!` }),
      400,
      'invalid_request',
    );
    expectError(
      await exchange(code, client.clientId, { code_verifier: 'b'.repeat(43) }),
      400,
      'invalid_grant',
    );
    expectError(
      await exchange(code, client.clientId, { redirect_uri: 'https://app.example.com/other' }),
      400,
      'invalid_grant',
    );
    // redirect_uri is checked only "if supplied".
    const { redirect_uri: _omit, ...withoutRedirect } = {
      ...base,
      code: code.code,
      code_verifier: code.verifier,
    };
    expect((await given.token(withoutRedirect)).statusCode).toBe(200);
  });

  it('resource must match the code binding: changing or introducing one is invalid_target', async () => {
    const user = await given.user();
    const resource = 'https://orders.example.com';
    const client = await given.client({ allowedResources: [resource, 'https://other.example.com'] });

    const unbound = await given.code({ clientId: client.clientId, userId: user.id });
    expectError(await exchange(unbound, client.clientId, { resource }), 400, 'invalid_target');
    expectError(
      await exchange(unbound, client.clientId, { resource: 'https://not-allowed.example.com' }),
      400,
      'invalid_target',
    );

    const bound = await given.code({ clientId: client.clientId, userId: user.id, resource });
    expectError(
      await exchange(bound, client.clientId, { resource: 'https://other.example.com' }),
      400,
      'invalid_target',
    );
    expectError(
      await exchange(bound, client.clientId, { resource: [resource, 'https://other.example.com'] }),
      400,
      'invalid_target',
    );
    const ok = await exchange(bound, client.clientId, { resource });
    expect(ok.statusCode).toBe(200);
    expect(decodeJwt(ok.json<{ access_token: string }>().access_token).aud).toBe(resource);
  });

  it('reuse of a code is invalid_grant and revokes the session its first redemption created', async () => {
    const user = await given.user();
    const client = await given.client();
    const code = await given.code({ clientId: client.clientId, userId: user.id });
    const first = await exchange(code, client.clientId);
    expect(first.statusCode).toBe(200);
    const refreshToken = first.json<{ refresh_token: string }>().refresh_token;

    expectError(await exchange(code, client.clientId), 400, 'invalid_grant');

    const refresh = await given.token({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: client.clientId,
    });
    expectError(refresh, 400, 'invalid_grant');
  });

  it('an expired code is invalid_grant (codes live 5 minutes)', async () => {
    const user = await given.user();
    const client = await given.client();
    const code = await given.code({ clientId: client.clientId, userId: user.id });
    t.clock.advance(5 * 60 * 1000);
    expectError(await exchange(code, client.clientId), 400, 'invalid_grant');
  });
});
