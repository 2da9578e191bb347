import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../kernel/clock.js';
import { randomIds } from '../../kernel/ids.js';
import { testConnection, type TestConnectionSettings } from '../../test-support/federation/connections.js';
import { startOidcPeer, type OidcPeer } from '../../test-support/federation/oidc-peer.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { calculatePKCECodeChallenge } from 'openid-client';
import { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';

const REDIRECT = 'http://127.0.0.1:9/svc/auth/oidc/callback';
const CLIENT = { clientId: 'svc-edges', clientSecret: 'edges-secret-0123456789', redirectUris: [REDIRECT] };

let peer: OidcPeer;
let silent: Server;
const sockets = new Set<Socket>();

beforeAll(async () => {
  peer = await startOidcPeer({
    clients: [CLIENT],
    accounts: [
      {
        id: 'alice',
        email: 'alice@example.com',
        emailVerified: 'true',
        name: 'Alice',
        preferredUsername: 'al',
      },
    ],
  });
  // Accepts connections and never answers: a provider that hangs.
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await peer.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

const connection = (settings: Partial<TestConnectionSettings> = {}) =>
  testConnection(
    {
      providerType: 'Custom',
      clientId: CLIENT.clientId,
      allowedCallbackUris: [REDIRECT],
      discoveryUrl: peer.discoveryUrl,
      ...settings,
    },
    { clientSecret: CLIENT.clientSecret },
  );

const rp = (options: { clock?: FakeClock; fetch?: typeof fetch; timeoutMs?: number } = {}) =>
  new OidcRelyingParty({
    clock: options.clock ?? new FakeClock(Date.now()),
    ids: randomIds,
    allowHttpLoopback: true,
    timeoutMs: options.timeoutMs ?? 2000,
    fetch: options.fetch,
  });

async function refusal(promise: Promise<unknown>): Promise<OidcRelyingPartyError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OidcRelyingPartyError);
  return error as OidcRelyingPartyError;
}

/** Starts, signs in at the peer and completes; `before` runs between the callback and the completion. */
async function signIn(party: OidcRelyingParty, conn = connection(), before: () => void = () => undefined) {
  const start = await party.start(conn, { redirectUri: REDIRECT });
  const callback = await peer.signIn(start.authorizationUrl, 'alice');
  before();
  return party.complete(conn, {
    callback,
    expectedState: start.state,
    expectedNonce: start.nonce,
    codeVerifier: start.codeVerifier ?? '',
    redirectUri: REDIRECT,
  });
}

describe('a provider that does not answer', () => {
  it('is provider_unavailable after the timeout, not a hang', async () => {
    const { port } = silent.address() as AddressInfo;
    const hanging = connection({ discoveryUrl: `http://127.0.0.1:${port}/.well-known/openid-configuration` });
    const started = performance.now();
    const error = await refusal(rp({ timeoutMs: 200 }).start(hanging, { redirectUri: REDIRECT }));
    expect(error.code).toBe('provider_unavailable');
    expect(error.status).toBe(502);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('is provider_unavailable when the connection is refused', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = connection({ discoveryUrl: `http://127.0.0.1:${port}/.well-known/openid-configuration` });
    const error = await refusal(rp().start(refused, { redirectUri: REDIRECT }));
    expect(error.code).toBe('provider_unavailable');
  });

  it('is provider_unavailable when the token endpoint answers 5xx', async () => {
    const failing: typeof fetch = async (input, init) =>
      String(input) === peer.tokenEndpoint
        ? new Response('Bad gateway', { status: 502 })
        : fetch(input, init);
    const error = await refusal(signIn(rp({ fetch: failing })));
    expect(error.code).toBe('provider_unavailable');
  });
});

describe('the ID token and UserInfo', () => {
  it('refuses an ID token that has expired by the clock', async () => {
    const clock = new FakeClock(Date.now());
    const error = await refusal(signIn(rp({ clock }), connection(), () => clock.advance(2 * HOUR_MS)));
    expect(error.code).toBe('invalid_id_token');
    expect(error.detail).toContain('exp');
  });

  it('refuses UserInfo about another subject', async () => {
    const lying: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input) !== peer.userInfoEndpoint) return response;
      const claims = (await response.json()) as Record<string, unknown>;
      return Response.json({ ...claims, sub: 'mallory' });
    };
    const error = await refusal(signIn(rp({ fetch: lying })));
    expect(error.code).toBe('invalid_provider_response');
    expect(error.message).toContain('UserInfo');
  });

  it('reads the claims the connection maps, and email_verified given as the string "true"', async () => {
    const identity = await signIn(rp(), connection({ claimMapping: { displayName: 'preferred_username' } }));
    expect(identity).toMatchObject({ displayName: 'al', email: 'alice@example.com', emailVerified: true });
  });
});

describe('a manual Custom connection', () => {
  it('signs in through its own issuer, endpoints and JWKS URI, with no discovery', async () => {
    const before = peer.server.count('GET /.well-known/openid-configuration');
    const manual = connection({
      useDiscovery: false,
      discoveryUrl: null,
      issuer: peer.issuer,
      authorizationEndpoint: peer.authorizationEndpoint,
      tokenEndpoint: peer.tokenEndpoint,
      jwksUri: peer.jwksUri,
      userInfoEndpoint: peer.userInfoEndpoint,
    });
    const identity = await signIn(rp(), manual);
    expect(identity).toMatchObject({ subject: 'alice', email: 'alice@example.com', emailVerified: true });
    expect(peer.server.count('GET /.well-known/openid-configuration')).toBe(before);
    expect(peer.server.count('GET /jwks')).toBeGreaterThan(0);
  });
});

describe('the exchange of a first-party app that keeps its own checks', () => {
  it('starts with the app’s state, nonce and challenge, and completes with the code and the app’s verifier', async () => {
    const party = rp();
    const conn = connection();
    const verifier = randomIds.secret();
    const appChecks = {
      state: 'app-state-1',
      nonce: 'app-nonce-1',
      codeChallenge: await calculatePKCECodeChallenge(verifier),
    };
    const start = await party.start(conn, { redirectUri: REDIRECT, appChecks });
    expect(start).toMatchObject({ state: 'app-state-1', nonce: 'app-nonce-1', codeVerifier: null });
    expect(new URL(start.authorizationUrl).searchParams.get('code_challenge')).toBe(appChecks.codeChallenge);
    const callback = await peer.signIn(start.authorizationUrl, 'alice');
    // The app checked the state on its own callback; it hands over the code (and here no iss).
    const identity = await party.complete(conn, {
      code: callback.searchParams.get('code') ?? '',
      expectedNonce: 'app-nonce-1',
      codeVerifier: verifier,
      redirectUri: REDIRECT,
    });
    expect(identity.subject).toBe('alice');
  });

  it('refuses checks that are not an S256 challenge', async () => {
    const error = await rp()
      .start(connection(), {
        redirectUri: REDIRECT,
        appChecks: { state: 's', nonce: 'n', codeChallenge: 'plain-verifier' },
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'invalid_request', status: 400 });
  });
});
