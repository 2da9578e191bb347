import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../kernel/clock.js';
import { randomIds } from '../../kernel/ids.js';
import { startApplePeer, type ApplePeer } from '../../test-support/federation/apple-peer.js';
import { testConnection } from '../../test-support/federation/connections.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { nextRsaTestKeyPair } from '../../test-support/rsa-test-keys.js';
import { APPLE_CLIENT_SECRET_AUDIENCE } from './apple-client-secret.js';
import { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';

const REDIRECT = 'http://127.0.0.1:9/svc/auth/oidc/callback';
const SERVICES_ID = 'com.example.svc.signin';
const TEAM_ID = 'TEAM123456';
const KEY_ID = 'KEY7654321';

function ecKeyPair() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { pem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), publicKey };
}

const key = ecKeyPair();
const clock = new FakeClock(Date.now());
let apple: ApplePeer;

beforeAll(async () => {
  apple = await startApplePeer({
    clock,
    clients: [
      {
        clientId: SERVICES_ID,
        teamId: TEAM_ID,
        keyId: KEY_ID,
        publicKey: key.publicKey,
        redirectUris: [REDIRECT],
      },
    ],
    accounts: [
      {
        id: '001234.abcdef.0001',
        email: 'jane@privaterelay.appleid.example',
        firstName: 'Jane',
        lastName: 'Appleseed',
      },
      { id: '001234.abcdef.0002', email: 'john@example.com', emailVerified: 'false' },
    ],
  });
});
afterAll(() => apple.close());

const connection = (pem = key.pem) =>
  testConnection(
    {
      providerType: 'Apple',
      clientId: SERVICES_ID,
      allowedCallbackUris: [REDIRECT],
      discoveryUrl: apple.discoveryUrl,
      appleTeamId: TEAM_ID,
      appleKeyId: KEY_ID,
    },
    { applePrivateKeyPem: pem },
  );

const rp = (at: FakeClock = clock) =>
  new OidcRelyingParty({ clock: at, ids: randomIds, allowHttpLoopback: true, timeoutMs: 2000 });

async function signIn(party: OidcRelyingParty, account: string, conn = connection()) {
  const start = await party.start(conn, { redirectUri: REDIRECT });
  const post = await apple.signIn(start.authorizationUrl, account);
  expect(post.action).toBe(REDIRECT);
  return party.complete(conn, {
    callback: post.fields,
    expectedState: start.state,
    expectedNonce: start.nonce,
    codeVerifier: start.codeVerifier ?? '',
    redirectUri: REDIRECT,
    userPayloadJson: post.fields.get('user'),
  });
}

async function refusal(promise: Promise<unknown>): Promise<OidcRelyingPartyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OidcRelyingPartyError);
  return error as OidcRelyingPartyError;
}

describe('Sign in with Apple', () => {
  it('asks with form_post for name and email, and reads the name from the first login’s form post only', async () => {
    const party = rp();
    const start = await party.start(connection(), { redirectUri: REDIRECT, loginHint: 'jane@example.com' });
    const url = new URL(start.authorizationUrl);
    expect(url.searchParams.get('scope')).toBe('name email');
    expect(url.searchParams.get('response_mode')).toBe('form_post');
    expect(url.searchParams.has('login_hint')).toBe(false);

    const first = await signIn(party, '001234.abcdef.0001');
    expect(first).toMatchObject({
      subject: '001234.abcdef.0001',
      email: 'jane@privaterelay.appleid.example',
      emailVerified: true,
      firstName: 'Jane',
      lastName: 'Appleseed',
      displayName: 'Jane Appleseed',
    });
    // Apple posts the user's name once; later sign-ins carry none.
    const later = await signIn(party, '001234.abcdef.0001');
    expect(later).toMatchObject({
      subject: '001234.abcdef.0001',
      firstName: null,
      lastName: null,
      displayName: null,
    });
  });

  it('never takes the email of the form post, and reads email_verified "false" as false', async () => {
    const party = rp();
    const conn = connection();
    const start = await party.start(conn, { redirectUri: REDIRECT });
    const post = await apple.signIn(start.authorizationUrl, '001234.abcdef.0002');
    const identity = await party.complete(conn, {
      callback: post.fields,
      expectedState: start.state,
      expectedNonce: start.nonce,
      codeVerifier: start.codeVerifier ?? '',
      redirectUri: REDIRECT,
      userPayloadJson: JSON.stringify({ name: { firstName: 'John' }, email: 'admin@example.com' }),
    });
    expect(identity).toMatchObject({ email: 'john@example.com', emailVerified: false, firstName: 'John' });
  });

  it('signs the client secret ES256 as Apple checks it, and signs it again before it expires', async () => {
    // Svc's clock and Apple's move together.
    const at = clock;
    const party = rp(at);
    const seen = apple.clientSecrets.length;
    await signIn(party, '001234.abcdef.0001');
    at.advance(40 * MINUTE_MS);
    await signIn(party, '001234.abcdef.0001');
    at.advance(11 * MINUTE_MS); // 51 minutes: less than 10 left of the first secret's hour
    await signIn(party, '001234.abcdef.0001');

    const secrets = apple.clientSecrets.slice(seen);
    expect(secrets.map((secret) => secret.accepted)).toEqual([true, true, true]);
    const [first, second, third] = secrets;
    expect(first?.header).toMatchObject({ alg: 'ES256', kid: KEY_ID });
    expect(first?.claims).toMatchObject({
      iss: TEAM_ID,
      sub: SERVICES_ID,
      aud: APPLE_CLIENT_SECRET_AUDIENCE,
    });
    expect((first?.claims.exp ?? 0) - (first?.claims.iat ?? 0)).toBe(HOUR_MS / 1000);
    expect(second?.jwt).toBe(first?.jwt);
    expect(third?.jwt).not.toBe(first?.jwt);
    expect(third?.claims.iat).toBe(Math.floor(at.now() / 1000));
  });

  it('is refused by Apple with an expired client secret or another key', async () => {
    // A node whose clock is two hours behind signs secrets that have expired by Apple's clock.
    const behind = await refusal(signIn(rp(new FakeClock(clock.now() - 2 * HOUR_MS)), '001234.abcdef.0001'));
    expect(behind).toMatchObject({ code: 'provider_error', providerError: 'invalid_client' });
    const wrongKey = await refusal(signIn(rp(), '001234.abcdef.0001', connection(ecKeyPair().pem)));
    expect(wrongKey).toMatchObject({ code: 'provider_error', providerError: 'invalid_client' });
  });

  it('refuses a key that cannot sign ES256', async () => {
    const { privateKey } = nextRsaTestKeyPair();
    const rsa = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const error = await refusal(signIn(rp(), '001234.abcdef.0001', connection(rsa)));
    expect(error.code).toBe('provider_configuration');
  });
});
