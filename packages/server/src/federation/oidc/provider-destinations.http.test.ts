import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../../test-support/databases.js';
import { startDnsServer, type TestDnsServer } from '../../test-support/dns-server.js';
import {
  startHttpsServer,
  tlsTestCertificate,
  TLS_TEST_HOSTS,
  type HttpsTestServer,
} from '../../test-support/federation/https-server.js';
import { startOidcPeer, type OidcPeer } from '../../test-support/federation/oidc-peer.js';
import {
  APP_CALLBACK,
  createProviderApp,
  PEER_ACCOUNTS,
  PEER_CLIENT,
  type ProviderApp,
} from '../../test-support/federation/provider-app.js';

/** The host of the discovery document (at 127.0.0.1, a network Svc may call), and one on 127.0.0.2. */
const [IDP_HOST, LOOPBACK_NAME] = TLS_TEST_HOSTS;

let peer: OidcPeer;
let dns: TestDnsServer;
let idp: HttpsTestServer;
/** A provider's token and key endpoints on this machine, served where the document points. */
let trap: HttpsTestServer;
let certificate: string;

beforeAll(async () => {
  const tls = await tlsTestCertificate();
  certificate = tls.certificate;
  [peer, dns, idp, trap] = await Promise.all([
    startOidcPeer({ clients: [PEER_CLIENT], accounts: PEER_ACCOUNTS, shape: 'custom' }),
    startDnsServer(),
    startHttpsServer(tls),
    startHttpsServer(tls, '127.0.0.2'),
  ]);
  dns.setAddresses(IDP_HOST, ['127.0.0.1']);
  dns.setAddresses(LOOPBACK_NAME, ['127.0.0.2']);
  dns.setAddresses('ten.test', ['10.1.2.3']);
  const issuer = `https://${IDP_HOST}:${idp.port}`;
  const endpoint = (path: string) => `https://${LOOPBACK_NAME}:${trap.port}${path}`;
  idp.serve((request, response) => {
    if (request.url !== '/.well-known/openid-configuration') {
      response.writeHead(404).end();
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: endpoint('/token'),
        jwks_uri: endpoint('/jwks'),
        userinfo_endpoint: endpoint('/userinfo'),
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
  });
  trap.serve((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end('{"access_token":"stolen","token_type":"Bearer"}');
  });
});
afterAll(async () => {
  await Promise.all([peer?.close(), dns?.close(), idp?.close(), trap?.close()]);
});

/** A refusal of the connection's configuration: a 500 whose message names `setting`. */
function refusedNaming(response: LightMyRequestResponse, setting: string): void {
  expect(response.statusCode, response.body).toBe(500);
  expect(response.json()).toMatchObject({
    error: 'provider_configuration',
    message: expect.stringContaining(setting) as unknown,
  });
}

/**
 * Requests to providers reach this machine only when the operator opts in with
 * SVC_ALLOW_INSECURE_LOOPBACK, never by development mode, and a private network only when
 * SVC_PROVIDER_ALLOWED_NETWORKS lists it (docs/decisions/federation-provider-destinations.md): a
 * connection whose discovery document names endpoints on loopback is refused at sign-in before anything
 * is sent there.
 */
describeAboveStorage('provider endpoints on this machine or a private network', (kind) => {
  let app: ProviderApp | undefined;
  afterEach(async () => {
    await app?.h.close();
    app = undefined;
  });

  it('a development Svc without SVC_ALLOW_INSECURE_LOOPBACK refuses a provider on loopback and asks it nothing', async () => {
    app = await createProviderApp(kind, peer, {});
    expect(app.h.t.svc.config.development).toBe(true);
    const before = peer.server.requests.length;
    refusedNaming((await app.start()).response, 'SVC_ALLOW_INSECURE_LOOPBACK=1');
    expect(peer.server.requests.length).toBe(before);
  });

  it('with SVC_ALLOW_INSECURE_LOOPBACK the same provider signs the user in', async () => {
    app = await createProviderApp(kind, peer, { allowInsecureLoopback: true });
    const exchanged = await app.exchange(await app.signIn('alice'));
    expect(exchanged.statusCode, exchanged.body).toBe(200);
  });

  it('a discovery document naming token and key endpoints on loopback is refused at sign-in, and nothing reaches them', async () => {
    app = await createProviderApp(
      kind,
      { discoveryUrl: `https://${IDP_HOST}:${idp.port}/.well-known/openid-configuration` },
      {
        dns: { servers: [dns.address], timeoutMs: 1_000 },
        // The document's own host is an on-premises network Svc may call; the endpoints it names are not.
        providerFetch: { allowedPrivateNetworks: ['127.0.0.1/32'], caCertificates: [certificate] },
      },
    );
    const { response, checks } = await app.start();
    expect(response.statusCode, response.body).toBe(200);
    expect(idp.requests).toContain('GET /.well-known/openid-configuration');
    const exchanged = await app.exchange({
      connectionId: app.connectionId,
      clientId: app.client.clientId,
      callbackUri: APP_CALLBACK,
      code: 'a-code-the-provider-issued',
      codeVerifier: checks.codeVerifier,
      nonce: checks.nonce,
    });
    refusedNaming(exchanged, 'SVC_ALLOW_INSECURE_LOOPBACK=1');
    expect(exchanged.json<{ message: string }>().message).toContain(`https://${LOOPBACK_NAME}:${trap.port}`);
    expect(trap.requests).toEqual([]);
  });

  it('a provider endpoint on a private network is refused unless SVC_PROVIDER_ALLOWED_NETWORKS lists it', async () => {
    app = await createProviderApp(kind, peer, {
      allowInsecureLoopback: true,
      dns: { servers: [dns.address], timeoutMs: 1_000 },
    });
    const onPremises = await app.h.t.svc.admin.createOidcConnectionAsync({
      providerType: 'Custom',
      displayName: 'On premises',
      clientId: PEER_CLIENT.clientId,
      clientSecret: PEER_CLIENT.clientSecret,
      useDiscovery: false,
      issuer: 'https://ten.test',
      authorizationEndpoint: 'https://ten.test/authorize',
      tokenEndpoint: 'https://ten.test/token',
      jwksUri: 'https://ten.test/jwks',
      allowedCallbackUris: [APP_CALLBACK],
    });
    const { response, checks } = await app.start({ connectionId: onPremises.id });
    expect(response.statusCode, response.body).toBe(200);
    refusedNaming(
      await app.exchange({
        connectionId: onPremises.id,
        clientId: app.client.clientId,
        callbackUri: APP_CALLBACK,
        code: 'a-code',
        codeVerifier: checks.codeVerifier,
        nonce: checks.nonce,
      }),
      'SVC_PROVIDER_ALLOWED_NETWORKS',
    );
  });
});
