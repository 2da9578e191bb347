import { decodeProtectedHeader, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomIds } from '../../kernel/ids.js';
import { testConnection } from '../../test-support/federation/connections.js';
import { startMicrosoftPeer, type MicrosoftPeer } from '../../test-support/federation/microsoft-peer.js';
import { rsaSigningKey } from '../../test-support/federation/oidc-provider-instance.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { OidcRelyingParty, type OidcCompleteInput } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';

const REDIRECT = 'http://127.0.0.1:9/svc/auth/oidc/callback';
const CLIENT = { clientId: 'svc-rp-ms', clientSecret: 'ms-secret-0123456789', redirectUris: [REDIRECT] };
const TENANT_A = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
const TENANT_B = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
/** A tenant whose tokens claim to be tenant A's. */
const TENANT_LIAR = 'c0ffee00-1234-4567-89ab-cdef01234567';

let peer: MicrosoftPeer;

beforeAll(async () => {
  peer = await startMicrosoftPeer({
    clients: [CLIENT],
    tenants: [
      { id: TENANT_A, accounts: [{ id: 'alice', email: 'alice@contoso.example', name: 'Alice' }] },
      { id: TENANT_B, accounts: [{ id: 'bob', email: 'bob@fabrikam.example', name: 'Bob' }] },
      { id: TENANT_LIAR, tidClaim: TENANT_A, accounts: [{ id: 'mallory', email: 'alice@contoso.example' }] },
    ],
  });
});
afterAll(() => peer.close());

const rp = (fetch?: typeof globalThis.fetch) =>
  new OidcRelyingParty({
    clock: new FakeClock(Date.now()),
    ids: randomIds,
    allowHttpLoopback: true,
    timeoutMs: 2000,
    fetch,
  });

const connection = (tenant: string | null = null) =>
  testConnection(
    {
      providerType: 'Microsoft',
      clientId: CLIENT.clientId,
      allowedCallbackUris: [REDIRECT],
      discoveryUrl: peer.discoveryUrlTemplate,
      ...(tenant === null ? {} : { microsoftTenant: tenant }),
    },
    { clientSecret: CLIENT.clientSecret },
  );

async function signIn(
  party: OidcRelyingParty,
  tenant: string | null,
  account: string,
  tamper: (callback: URL) => URL = (callback) => callback,
) {
  const conn = connection(tenant);
  const start = await party.start(conn, { redirectUri: REDIRECT });
  const callback = tamper(await peer.signIn(start.authorizationUrl, account));
  const input: OidcCompleteInput = {
    callback,
    expectedState: start.state,
    expectedNonce: start.nonce,
    codeVerifier: start.codeVerifier ?? '',
    redirectUri: REDIRECT,
  };
  return party.complete(conn, input);
}

async function refusal(promise: Promise<unknown>): Promise<OidcRelyingPartyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OidcRelyingPartyError);
  return error as OidcRelyingPartyError;
}

describe('a Microsoft connection on the multi-tenant endpoints (common)', () => {
  it('validates each ID token against its own tenant’s issuer, {tenantid} replaced by its tid', async () => {
    const party = rp();
    const start = await party.start(connection(), { redirectUri: REDIRECT });
    expect(start.authorizationUrl).toContain(`${peer.origin}/common/oauth2/v2.0/authorize?`);

    const alice = await signIn(party, null, 'alice');
    expect(alice).toMatchObject({ subject: 'alice', email: 'alice@contoso.example', displayName: 'Alice' });
    // Microsoft does not assert that an email is verified: no email_verified, so false.
    expect(alice.emailVerified).toBe(false);
    expect(alice.rawClaims).toMatchObject({ iss: peer.issuerOf(TENANT_A), tid: TENANT_A });

    const bob = await signIn(party, null, 'bob');
    expect(bob.rawClaims).toMatchObject({ iss: peer.issuerOf(TENANT_B), tid: TENANT_B });
    // One discovery for both sign-ins, and UserInfo answered by each user's own tenant.
    expect(peer.server.count('GET /common/v2.0/.well-known/openid-configuration')).toBe(1);
    expect(peer.server.count(`GET /${TENANT_B}/v2.0/me`)).toBe(1);
  });

  it('refuses a token whose iss is not the issuer of its tid', async () => {
    const error = await refusal(signIn(rp(), null, 'mallory'));
    expect(error.code).toBe('invalid_id_token');
    expect(error.detail).toContain('iss');
  });

  it('refuses an ID token signed by another key, its issuer and tid consistent', async () => {
    const forger = await importJWK(rsaSigningKey(), 'RS256');
    const tampering: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith('/common/oauth2/v2.0/token') || response.status !== 200) return response;
      const body = (await response.json()) as { id_token: string };
      const [, payload = ''] = body.id_token.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      const { kid } = decodeProtectedHeader(body.id_token);
      body.id_token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: String(kid) })
        .sign(forger);
      return Response.json(body);
    };
    const error = await refusal(signIn(rp(tampering), null, 'alice'));
    expect(error.code).toBe('invalid_id_token');
    expect(error.detail).toContain('signature');
  });

  it('refuses a callback naming another tenant than the token’s, and one naming another provider', async () => {
    const swapped = await refusal(
      signIn(rp(), null, 'alice', (callback) => {
        callback.searchParams.set('iss', peer.issuerOf(TENANT_B));
        return callback;
      }),
    );
    expect(swapped.code).toBe('invalid_callback');
    const foreign = await refusal(
      signIn(rp(), null, 'alice', (callback) => {
        callback.searchParams.set('iss', 'https://idp.example.com');
        return callback;
      }),
    );
    expect(foreign.code).toBe('invalid_callback');
  });
});

describe('a Microsoft connection to one tenant', () => {
  it('uses the tenant’s own discovery document and its exact issuer', async () => {
    const party = rp();
    const start = await party.start(connection(TENANT_A), { redirectUri: REDIRECT });
    expect(start.authorizationUrl.startsWith(`${peer.issuerOf(TENANT_A)}/auth?`)).toBe(true);
    const alice = await signIn(party, TENANT_A, 'alice');
    expect(alice.rawClaims).toMatchObject({ iss: peer.issuerOf(TENANT_A), tid: TENANT_A });
  });
});
