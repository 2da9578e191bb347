import { SignJWT, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIds } from '../../kernel/ids.js';
import { testConnection } from '../../test-support/federation/connections.js';
import { startOidcPeer, type OidcPeer } from '../../test-support/federation/oidc-peer.js';
import { rsaSigningKey } from '../../test-support/federation/oidc-provider-instance.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';

const REDIRECT = 'http://127.0.0.1:9/svc/auth/oidc/callback';
const CLIENT = { clientId: 'svc-rp', clientSecret: 'rp-secret-0123456789', redirectUris: [REDIRECT] };
const ACCOUNTS = [
  {
    id: 'alice',
    email: 'alice@example.com',
    emailVerified: true,
    name: 'Alice Liddell',
    givenName: 'Alice',
    familyName: 'Liddell',
    preferredUsername: 'alice',
  },
  { id: 'bob', email: 'bob@example.com', emailVerified: false, name: 'Bob' },
  { id: 'carol', email: 'carol@example.com', name: 'Carol' },
];

let custom: OidcPeer;
let google: OidcPeer;

beforeAll(async () => {
  custom = await startOidcPeer({ clients: [CLIENT], accounts: ACCOUNTS, shape: 'custom' });
  google = await startOidcPeer({
    clients: [{ ...CLIENT, authMethod: 'client_secret_basic' }],
    accounts: ACCOUNTS,
    shape: 'google',
  });
});
afterAll(async () => {
  await custom.close();
  await google.close();
});

function relyingParty(options: { fetch?: typeof fetch; clock?: FakeClock } = {}) {
  return new OidcRelyingParty({
    clock: options.clock ?? new FakeClock(Date.now()),
    ids: randomIds,
    allowHttpLoopback: true,
    timeoutMs: 2000,
    fetch: options.fetch,
  });
}

const customConnection = () =>
  testConnection(
    {
      providerType: 'Custom',
      clientId: CLIENT.clientId,
      allowedCallbackUris: [REDIRECT],
      discoveryUrl: custom.discoveryUrl,
    },
    { clientSecret: CLIENT.clientSecret },
  );

async function rejection(promise: Promise<unknown>): Promise<OidcRelyingPartyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OidcRelyingPartyError);
  return error as OidcRelyingPartyError;
}

describe('a Custom OpenID provider by discovery', () => {
  it('starts with state, nonce and PKCE S256, and completes with the identity from the ID token and UserInfo', async () => {
    const rp = relyingParty();
    const connection = customConnection();
    const start = await rp.start(connection, { redirectUri: REDIRECT, loginHint: 'alice@example.com' });
    const url = new URL(start.authorizationUrl);
    expect(url.origin + url.pathname).toBe(custom.authorizationEndpoint);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid email profile',
      state: start.state,
      nonce: start.nonce,
      code_challenge_method: 'S256',
      login_hint: 'alice@example.com',
    });
    expect(start.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const callback = await custom.signIn(start.authorizationUrl, 'alice');
    expect(callback.searchParams.get('iss')).toBe(custom.issuer);
    const identity = await rp.complete(connection, {
      callback,
      expectedState: start.state,
      expectedNonce: start.nonce,
      codeVerifier: start.codeVerifier ?? '',
      redirectUri: REDIRECT,
    });
    expect(identity).toMatchObject({
      subject: 'alice',
      email: 'alice@example.com',
      emailVerified: true,
      displayName: 'Alice Liddell',
      firstName: 'Alice',
      lastName: 'Liddell',
      preferredUsername: 'alice',
    });
    expect(identity.rawClaims).toMatchObject({ iss: custom.issuer, aud: CLIENT.clientId, sub: 'alice' });
    expect(custom.server.count('GET /me')).toBe(1);
  });

  it('takes email_verified only when the provider asserts it', async () => {
    const rp = relyingParty();
    const connection = customConnection();
    for (const [account, verified] of [
      ['bob', false],
      ['carol', false],
    ] as const) {
      const start = await rp.start(connection, { redirectUri: REDIRECT });
      const callback = await custom.signIn(start.authorizationUrl, account);
      const identity = await rp.complete(connection, {
        callback,
        expectedState: start.state,
        expectedNonce: start.nonce,
        codeVerifier: start.codeVerifier ?? '',
        redirectUri: REDIRECT,
      });
      expect(identity.email).toBe(`${account}@example.com`);
      expect(identity.emailVerified).toBe(verified);
    }
  });

  it('refuses a redirect URI that is not one of the connection’s, exactly', async () => {
    const rp = relyingParty();
    const error = await rejection(rp.start(customConnection(), { redirectUri: `${REDIRECT}/` }));
    expect(error.code).toBe('invalid_redirect_uri');
    expect(error.status).toBe(400);
  });

  it('refuses a wrong nonce, and the code redeemed twice fails at the provider', async () => {
    const rp = relyingParty();
    const connection = customConnection();
    const start = await rp.start(connection, { redirectUri: REDIRECT });
    const callback = await custom.signIn(start.authorizationUrl, 'alice');
    const checks = {
      callback,
      expectedState: start.state,
      codeVerifier: start.codeVerifier ?? '',
      redirectUri: REDIRECT,
    };
    const wrongNonce = await rejection(
      rp.complete(connection, { ...checks, expectedNonce: 'another-nonce' }),
    );
    expect(wrongNonce.code).toBe('invalid_id_token');
    expect(wrongNonce.detail).toContain('nonce');
    // The code was redeemed by the first attempt: a second one fails at the provider.
    const replay = await rejection(rp.complete(connection, { ...checks, expectedNonce: start.nonce }));
    expect(replay.code).toBe('provider_error');
    expect(replay.providerError).toBe('invalid_grant');
  });

  it('refuses a callback whose state is not this sign-in’s (a replayed callback)', async () => {
    const rp = relyingParty();
    const connection = customConnection();
    const first = await rp.start(connection, { redirectUri: REDIRECT });
    const second = await rp.start(connection, { redirectUri: REDIRECT });
    const callback = await custom.signIn(first.authorizationUrl, 'alice');
    const error = await rejection(
      rp.complete(connection, {
        callback,
        expectedState: second.state,
        expectedNonce: second.nonce,
        codeVerifier: second.codeVerifier ?? '',
        redirectUri: REDIRECT,
      }),
    );
    expect(error.code).toBe('invalid_state');
  });

  it('refuses an ID token signed by another key than the provider’s', async () => {
    const forger = rsaSigningKey(custom.signingKey.kid);
    const forgerKey = await importJWK(forger, 'RS256');
    // Someone between Svc and the provider swaps the ID token for one with the same claims and key id.
    const tampering: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input) !== custom.tokenEndpoint || response.status !== 200) return response;
      const body = (await response.json()) as { id_token: string };
      const [, payload = ''] = body.id_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      body.id_token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: String(custom.signingKey.kid) })
        .sign(forgerKey);
      return new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const rp = relyingParty({ fetch: tampering });
    const connection = customConnection();
    const start = await rp.start(connection, { redirectUri: REDIRECT });
    const callback = await custom.signIn(start.authorizationUrl, 'alice');
    const error = await rejection(
      rp.complete(connection, {
        callback,
        expectedState: start.state,
        expectedNonce: start.nonce,
        codeVerifier: start.codeVerifier ?? '',
        redirectUri: REDIRECT,
      }),
    );
    expect(error.code).toBe('invalid_id_token');
    expect(error.detail).toContain('signature');
  });

  it('surfaces the provider’s error callback (access_denied)', async () => {
    const rp = relyingParty();
    const connection = customConnection();
    const start = await rp.start(connection, { redirectUri: REDIRECT });
    const callback = new URL(REDIRECT);
    callback.searchParams.set('error', 'access_denied');
    callback.searchParams.set('error_description', 'The user said no.');
    callback.searchParams.set('state', start.state);
    const error = await rejection(
      rp.complete(connection, {
        callback,
        expectedState: start.state,
        expectedNonce: start.nonce,
        codeVerifier: start.codeVerifier ?? '',
        redirectUri: REDIRECT,
      }),
    );
    expect(error).toMatchObject({
      code: 'provider_error',
      providerError: 'access_denied',
      providerErrorDescription: 'The user said no.',
    });
  });
});

describe('a Google-shaped provider', () => {
  it('reads the identity from the ID token, with client_secret_basic', async () => {
    const rp = relyingParty();
    const connection = testConnection(
      {
        providerType: 'Google',
        clientId: CLIENT.clientId,
        allowedCallbackUris: [REDIRECT],
        discoveryUrl: google.discoveryUrl,
        clientAuthMethod: 'ClientSecretBasic',
        useUserInfo: false,
      },
      { clientSecret: CLIENT.clientSecret },
    );
    const start = await rp.start(connection, { redirectUri: REDIRECT });
    const callback = await google.signIn(start.authorizationUrl, 'alice');
    const identity = await rp.complete(connection, {
      callback,
      expectedState: start.state,
      expectedNonce: start.nonce,
      codeVerifier: start.codeVerifier ?? '',
      redirectUri: REDIRECT,
    });
    expect(identity).toMatchObject({ subject: 'alice', email: 'alice@example.com', emailVerified: true });
    expect(google.server.count('GET /me')).toBe(0);
  });
});
