import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { randomIds } from '../../kernel/ids.js';
import { testConnection } from '../../test-support/federation/connections.js';
import { startOidcPeer, type OidcPeer } from '../../test-support/federation/oidc-peer.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { ProviderMetadataCache } from './provider-metadata.js';
import { OidcRelyingParty } from './relying-party.js';
import { OidcRelyingPartyError } from './rp-errors.js';
import { UpstreamHttp } from './upstream-http.js';

const REDIRECT = 'http://127.0.0.1:9/svc/auth/oidc/callback';
const CLIENT = { clientId: 'svc-meta', clientSecret: 'meta-secret-0123456789', redirectUris: [REDIRECT] };
const DISCOVERY = 'GET /.well-known/openid-configuration';

let peer: OidcPeer;
beforeAll(async () => {
  peer = await startOidcPeer({
    clients: [CLIENT],
    accounts: [{ id: 'alice', email: 'alice@example.com', emailVerified: true, name: 'Alice' }],
  });
});
afterAll(() => peer.close());

const discovered = (id = 'oidc_meta', overrides: Record<string, string> = {}) =>
  testConnection(
    {
      providerType: 'Custom',
      clientId: CLIENT.clientId,
      allowedCallbackUris: [REDIRECT],
      discoveryUrl: peer.discoveryUrl,
      ...overrides,
    },
    { clientSecret: CLIENT.clientSecret },
    id,
  );

function cache(clock: FakeClock, http = new UpstreamHttp({ allowHttpLoopback: true, timeoutMs: 2000 })) {
  return new ProviderMetadataCache({ clock, http });
}

describe('provider metadata', () => {
  it('fetches a discovery document once per connection for an hour, and again after', async () => {
    const clock = new FakeClock(Date.now());
    const metadata = cache(clock);
    const before = peer.server.count(DISCOVERY);
    const first = await metadata.resolve(discovered('oidc_ttl'));
    expect(first.server.issuer).toBe(peer.issuer);
    expect(first.server.token_endpoint).toBe(peer.tokenEndpoint);
    clock.advance(59 * MINUTE_MS);
    await metadata.resolve(discovered('oidc_ttl'));
    expect(peer.server.count(DISCOVERY) - before).toBe(1);
    clock.advance(2 * MINUTE_MS);
    await metadata.resolve(discovered('oidc_ttl'));
    expect(peer.server.count(DISCOVERY) - before).toBe(2);
    metadata.forget('oidc_ttl');
    await metadata.resolve(discovered('oidc_ttl'));
    expect(peer.server.count(DISCOVERY) - before).toBe(3);
  });

  it('shares one fetch between concurrent sign-ins', async () => {
    const party = new OidcRelyingParty({
      clock: new FakeClock(Date.now()),
      ids: randomIds,
      allowHttpLoopback: true,
      timeoutMs: 2000,
    });
    const before = peer.server.count(DISCOVERY);
    const starts = await Promise.all(
      Array.from({ length: 8 }, () => party.start(discovered('oidc_flight'), { redirectUri: REDIRECT })),
    );
    expect(new Set(starts.map((start) => start.state)).size).toBe(8);
    expect(peer.server.count(DISCOVERY) - before).toBe(1);
  });

  it('lets the connection’s endpoints win over the document’s', async () => {
    const metadata = await cache(new FakeClock()).resolve(
      discovered('oidc_override', { authorizationEndpoint: 'https://login.example.com/authorize' }),
    );
    expect(metadata.server.authorization_endpoint).toBe('https://login.example.com/authorize');
    expect(metadata.server.token_endpoint).toBe(peer.tokenEndpoint);
  });

  it('uses a manual Custom connection’s own endpoints without fetching anything', async () => {
    const before = peer.server.requests.length;
    const manual = testConnection(
      {
        providerType: 'Custom',
        clientId: CLIENT.clientId,
        allowedCallbackUris: [REDIRECT],
        useDiscovery: false,
        issuer: peer.issuer,
        authorizationEndpoint: peer.authorizationEndpoint,
        tokenEndpoint: peer.tokenEndpoint,
        jwksUri: peer.jwksUri,
        userInfoEndpoint: peer.userInfoEndpoint,
      },
      { clientSecret: CLIENT.clientSecret },
      'oidc_manual',
    );
    const metadata = await cache(new FakeClock()).resolve(manual);
    expect(metadata.server).toMatchObject({
      issuer: peer.issuer,
      authorization_endpoint: peer.authorizationEndpoint,
      token_endpoint: peer.tokenEndpoint,
      jwks_uri: peer.jwksUri,
      userinfo_endpoint: peer.userInfoEndpoint,
    });
    expect(peer.server.requests.length).toBe(before);
  });

  it('refuses plain http unless allowed, and only on loopback', async () => {
    const refused = await cache(new FakeClock(), new UpstreamHttp())
      .resolve(discovered('oidc_http'))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OidcRelyingPartyError);
    expect(refused).toMatchObject({ code: 'provider_configuration' });
    const remote = await cache(new FakeClock())
      .resolve(discovered('oidc_remote', { tokenEndpoint: 'http://idp.example.com/token' }))
      .catch((error: unknown) => error);
    expect(remote).toMatchObject({ code: 'provider_configuration' });
  });

  it('refuses a discovery document whose issuer is not the URL it was read from', async () => {
    const elsewhere = testConnection(
      {
        providerType: 'Custom',
        clientId: CLIENT.clientId,
        allowedCallbackUris: [REDIRECT],
        discoveryUrl: `http://localhost:${new URL(peer.issuer).port}/.well-known/openid-configuration`,
      },
      { clientSecret: CLIENT.clientSecret },
      'oidc_mismatch',
    );
    const error = await cache(new FakeClock())
      .resolve(elsewhere)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OidcRelyingPartyError);
    expect(error).toMatchObject({ code: 'provider_configuration' });
    expect((error as Error).message).toContain('issuer');
  });

  it('does not keep a failed fetch', async () => {
    const clock = new FakeClock(Date.now());
    let fail = true;
    const http = new UpstreamHttp({
      allowHttpLoopback: true,
      fetch: async (input, init) => (fail ? new Response('down', { status: 503 }) : fetch(input, init)),
    });
    const metadata = cache(clock, http);
    await expect(metadata.resolve(discovered('oidc_retry'))).rejects.toMatchObject({
      code: 'provider_unavailable',
    });
    fail = false;
    await expect(metadata.resolve(discovered('oidc_retry'))).resolves.toMatchObject({
      server: { issuer: peer.issuer },
    });
  });
});
