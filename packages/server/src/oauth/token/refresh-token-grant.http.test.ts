import { decodeJwt } from 'jose';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeAboveStorage } from '../../test-support/databases.js';
import { basicAuth, oauthGiven, REDIRECT_URI, type OAuthGiven } from '../../test-support/oauth-http.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

type Response = Awaited<ReturnType<OAuthGiven['token']>>;

interface Tokens {
  access_token: string;
  refresh_token: string;
  scope?: string;
  id_token?: string;
}

describeAboveStorage('POST /token grant_type=refresh_token', (kind) => {
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
    expect(response.headers.pragma).toBe('no-cache');
  };

  /** Signs a user in at `client` through a code and returns the first token response. */
  async function signIn(
    client: { clientId: string; clientSecret?: string | undefined; tokenEndpointAuthMethod?: string },
    options: { scopes?: string[]; resource?: string; nonce?: string } = {},
  ): Promise<Tokens> {
    const user = await given.user();
    const code = await given.code({
      clientId: client.clientId,
      userId: user.id,
      scopes: options.scopes ?? ['openid', 'profile'],
      resource: options.resource ?? null,
      nonce: options.nonce ?? 'the-nonce',
    });
    const secret = client.clientSecret ?? undefined;
    const response = await given.token(
      {
        grant_type: 'authorization_code',
        code: code.code,
        code_verifier: code.verifier,
        redirect_uri: REDIRECT_URI,
        client_id: client.clientId,
        client_secret: client.tokenEndpointAuthMethod === 'client_secret_post' ? secret : undefined,
      },
      client.tokenEndpointAuthMethod === 'client_secret_basic' && secret !== undefined
        ? { authorization: basicAuth(client.clientId, secret) }
        : {},
    );
    expect(response.statusCode).toBe(200);
    return response.json<Tokens>();
  }

  const refresh = (params: Record<string, string | undefined>, headers: Record<string, string> = {}) =>
    given.token({ grant_type: 'refresh_token', ...params }, headers);

  it('a public client rotates with its client_id: new pair, original scope echoed, ID token without nonce', async () => {
    const client = await given.client();
    const first = await signIn(client);
    expect(decodeJwt(first.id_token ?? '').nonce).toBe('the-nonce');

    const response = await refresh({ refresh_token: first.refresh_token, client_id: client.clientId });

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.pragma).toBe('no-cache');
    const body = response.json<Tokens>();
    expect(body.scope).toBe('openid profile');
    expect(body.refresh_token).not.toBe(first.refresh_token);
    const id = decodeJwt(body.id_token ?? '');
    expect(id.sub).toBe(decodeJwt(first.id_token ?? '').sub);
    expect(id).not.toHaveProperty('nonce');
    // The old token was consumed: presenting it again (within the grace window) is invalid_grant.
    expectError(
      await refresh({ refresh_token: first.refresh_token, client_id: client.clientId }),
      400,
      'invalid_grant',
    );
    // …and the family survives that replay (DECISIONS: grace-window rule).
    expect(
      (await refresh({ refresh_token: body.refresh_token, client_id: client.clientId })).statusCode,
    ).toBe(200);
  });

  it('a public client may omit client_id: the token names its client', async () => {
    const client = await given.client();
    const first = await signIn(client);
    const response = await refresh({ refresh_token: first.refresh_token });
    expect(response.statusCode).toBe(200);
    expect(decodeJwt(response.json<Tokens>().access_token).client_id).toBe(client.clientId);
  });

  it("a sent client_id must match the token's client; the token is not consumed by the mismatch", async () => {
    const client = await given.client();
    const other = await given.client();
    const first = await signIn(client);
    expectError(
      await refresh({ refresh_token: first.refresh_token, client_id: other.clientId }),
      400,
      'invalid_grant',
    );
    expectError(
      await refresh({ refresh_token: first.refresh_token, client_id: 'no-such-client' }),
      401,
      'invalid_client',
    );
    expect(
      (await refresh({ refresh_token: first.refresh_token, client_id: client.clientId })).statusCode,
    ).toBe(200);
  });

  it('a public client must not authenticate', async () => {
    const client = await given.client();
    const first = await signIn(client);
    expectError(
      await refresh({ refresh_token: first.refresh_token, client_id: client.clientId, client_secret: 'x' }),
      401,
      'invalid_client',
    );
    const basic = await refresh(
      { refresh_token: first.refresh_token },
      { authorization: basicAuth(client.clientId, 'x') },
    );
    expectError(basic, 401, 'invalid_client');
    expect(basic.headers['www-authenticate']).toBe('Basic realm="svc"');
    expect((await refresh({ refresh_token: first.refresh_token })).statusCode).toBe(200);
  });

  it('a confidential client must authenticate; without credentials it is 401 and the token is not consumed', async () => {
    const client = await given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    const secret = client.clientSecret ?? '';
    const first = await signIn(client);

    const none = await refresh({ refresh_token: first.refresh_token });
    expectError(none, 401, 'invalid_client');
    expect(none.json()).toMatchObject({ error_description: 'Client authentication failed.' });
    expectError(
      await refresh({ refresh_token: first.refresh_token, client_id: client.clientId }),
      401,
      'invalid_client',
    );
    expectError(
      await refresh(
        { refresh_token: first.refresh_token },
        { authorization: basicAuth(client.clientId, 'wrong') },
      ),
      401,
      'invalid_client',
    );
    // Still usable: nothing above consumed it.
    const ok = await refresh(
      { refresh_token: first.refresh_token },
      { authorization: basicAuth(client.clientId, secret) },
    );
    expect(ok.statusCode).toBe(200);
  });

  it('client_secret_post refreshes a client_secret_post client', async () => {
    const client = await given.client({ tokenEndpointAuthMethod: 'client_secret_post' });
    const first = await signIn(client);
    const ok = await refresh({
      refresh_token: first.refresh_token,
      client_id: client.clientId,
      client_secret: client.clientSecret ?? '',
    });
    expect(ok.statusCode).toBe(200);
  });

  it('resource may repeat the binding but not introduce or change it (invalid_target, token kept)', async () => {
    const resource = 'https://orders.example.com';
    const client = await given.client({ allowedResources: [resource, 'https://other.example.com'] });
    const unbound = await signIn(client);
    expectError(await refresh({ refresh_token: unbound.refresh_token, resource }), 400, 'invalid_target');
    expect((await refresh({ refresh_token: unbound.refresh_token })).statusCode).toBe(200);

    const bound = await signIn(client, { resource });
    expectError(
      await refresh({ refresh_token: bound.refresh_token, resource: 'https://other.example.com' }),
      400,
      'invalid_target',
    );
    const same = await refresh({ refresh_token: bound.refresh_token, resource });
    expect(same.statusCode).toBe(200);
    expect(decodeJwt(same.json<Tokens>().access_token).aud).toBe(resource);
  });

  it('scope may narrow (the answer still echoes the original grant) but never widen (invalid_scope)', async () => {
    const client = await given.client();
    const first = await signIn(client, { scopes: ['openid', 'profile'] });

    expectError(
      await refresh({ refresh_token: first.refresh_token, scope: 'openid profile email' }),
      400,
      'invalid_scope',
    );
    const narrowed = await refresh({ refresh_token: first.refresh_token, scope: 'profile' });
    expect(narrowed.statusCode).toBe(200);
    expect(narrowed.json<Tokens>().scope).toBe('openid profile');
    expect(decodeJwt(narrowed.json<Tokens>().access_token).scope).toBe('openid profile');
  });

  it('a session granted without openid gets no ID token on refresh', async () => {
    const client = await given.client();
    const first = await signIn(client, { scopes: ['profile'] });
    const response = await refresh({ refresh_token: first.refresh_token });
    expect(response.json()).not.toHaveProperty('id_token');
    expect(response.json<Tokens>().scope).toBe('profile');
  });

  it('refresh_token is required; an unknown token is invalid_grant', async () => {
    const client = await given.client();
    expectError(await refresh({ client_id: client.clientId }), 400, 'invalid_request');
    expectError(await refresh({ refresh_token: 'nope', client_id: client.clientId }), 400, 'invalid_grant');
    expectError(await refresh({ refresh_token: 'nope' }), 400, 'invalid_grant');
  });

  it('a session past its idle deadline is refused', async () => {
    const client = await given.client();
    const first = await signIn(client);
    t.clock.advance(15 * 24 * 60 * 60 * 1000);
    expectError(await refresh({ refresh_token: first.refresh_token }), 400, 'invalid_grant');
  });
});
