import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startHttpsServer,
  tlsTestCertificate,
  type HttpsTestServer,
} from '../../test-support/federation/https-server.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';
import { freePort } from '../../test-support/postgres-launcher.js';

/** The MCP server the tokens are for: its protected resource metadata (RFC 9728) names Svc. */
const MCP_SERVER = 'https://mcp.example.com/mcp';
const REDIRECT_URI = 'http://127.0.0.1:7777/callback';

/** What an MCP host keeps for one server, in memory; the authorization URL it would open in a browser. */
class MemoryProvider implements OAuthClientProvider {
  readonly redirectUrl = REDIRECT_URI;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'Notes MCP host',
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  readonly clientMetadataUrl?: string;

  constructor(clientMetadataUrl?: string) {
    if (clientMetadataUrl !== undefined) this.clientMetadataUrl = clientMetadataUrl;
  }

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The MCP TypeScript SDK's own client authorization (`auth()`), as an MCP host runs it against an MCP
 * server whose authorization server is Svc: protected resource metadata, Svc's discovery, then dynamic
 * client registration or, where Svc says it supports them, a Client ID Metadata Document URL as the
 * client_id; the code flow with PKCE and the MCP server as the resource (RFC 8707); a refresh.
 */
describe('the MCP SDK signs in through Svc', () => {
  let h: HostedTestApp;
  let issuer: string;
  let documents: HttpsTestServer;
  let documentUrl: string;

  beforeAll(async () => {
    const certificate = await tlsTestCertificate();
    documents = await startHttpsServer(certificate);
    documentUrl = `https://localhost:${documents.port}/mcp-host/client.json`;
    documents.serve((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          client_id: documentUrl,
          ...new MemoryProvider().clientMetadata,
          client_name: 'Notes MCP (document)',
        }),
      );
    });
    const port = await freePort();
    const mcpClients = { enabled: true, allowedScopes: ['openid', 'notes:read'], audience: MCP_SERVER };
    h = await createHostedTestApp('sqlite', {
      publicOrigin: `http://127.0.0.1:${port}`,
      dynamicClientRegistration: mcpClients,
      // The document's host is this machine: opted in, with the test CA trusted.
      clientIdMetadataDocuments: {
        ...mcpClients,
        caCertificates: [certificate.certificate],
        allowLoopback: true,
      },
    });
    await h.app.listen({ port, host: '127.0.0.1' });
    issuer = h.t.svc.config.issuer;
  });
  afterAll(async () => {
    await h.close();
    await documents.close();
  });

  /** The SDK's requests: the MCP server's metadata is answered here, Svc's go over the network. */
  const fetchFn: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (url.origin === new URL(MCP_SERVER).origin) {
      return url.pathname.startsWith('/.well-known/oauth-protected-resource')
        ? Response.json({
            resource: MCP_SERVER,
            authorization_servers: [issuer],
            scopes_supported: ['notes:read'],
          })
        : new Response(null, { status: 404 });
    }
    return fetch(input, init);
  };

  /** Runs `auth()` to the redirect, signs a user in and consents in the pages, and finishes with the code. */
  async function signIn(provider: MemoryProvider) {
    expect(await auth(provider, { serverUrl: MCP_SERVER, fetchFn })).toBe('REDIRECT');
    const authorizationUrl = provider.authorizationUrl ?? new URL('about:blank');
    expect(authorizationUrl.searchParams.get('resource')).toBe(MCP_SERVER);
    const user = await h.given.user();
    const browser = new InjectBrowser(h, new URL(issuer).origin);
    const consent = await browser.signIn(
      await browser.get(authorizationUrl.href),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(consent.statusCode, consent.body).toBe(200);
    const page = browser.page;
    const callback = InjectBrowser.location(await browser.post('/consent/approve'));
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT_URI);
    const code = callback.searchParams.get('code') ?? '';
    expect(await auth(provider, { serverUrl: MCP_SERVER, authorizationCode: code, fetchFn })).toBe(
      'AUTHORIZED',
    );
    return { user, page };
  }

  it('registers itself where Svc offers only registration, and gets tokens for the MCP server', async () => {
    const provider = new MemoryProvider();
    const { user, page } = await signIn(provider);
    expect(provider.information?.client_id).toMatch(/^dcr_/);
    expect(page).toContain('This application registered itself');
    const access = decodeJwt(provider.saved?.access_token ?? '');
    expect(access).toMatchObject({ sub: user.id, aud: MCP_SERVER, scope: 'notes:read' });
    // The next run refreshes rather than asking the user again.
    const before = provider.saved?.refresh_token;
    expect(await auth(provider, { serverUrl: MCP_SERVER, fetchFn })).toBe('AUTHORIZED');
    expect(provider.saved?.refresh_token).not.toBe(before);
  });

  it('uses its metadata document URL as the client_id where Svc supports them', async () => {
    const provider = new MemoryProvider(documentUrl);
    const { user, page } = await signIn(provider);
    expect(provider.information?.client_id).toBe(documentUrl);
    expect(page).toContain('Allow Notes MCP (document) to access your account?');
    expect(page).toContain(`This application is described by <strong>localhost:${documents.port}</strong>`);
    expect(decodeJwt(provider.saved?.access_token ?? '')).toMatchObject({
      sub: user.id,
      aud: MCP_SERVER,
      client_id: documentUrl,
    });
    expect(documents.requests).toEqual(['GET /mcp-host/client.json']);
  });
});
