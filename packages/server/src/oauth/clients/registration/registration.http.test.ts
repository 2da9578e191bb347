import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_REDIRECT_URI, authorizeQuery, pkcePair } from '../../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { startLoopbackServer } from '../../../test-support/federation/loopback-server.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../../test-support/hosted-test-app.js';
import { HeadlessBrowser, headlessStartBody } from '../../../test-support/headless-browser.js';
import { InjectBrowser } from '../../../test-support/inject-browser.js';
import { form } from '../../../test-support/oauth-http.js';
import { createTestSvc } from '../../../test-support/test-svc.js';

const ADMIN = '/svc/admin/auth/api';
const MCP_AUDIENCE = 'https://mcp.example.com';
/** rateLimits.clientRegistration.ip.limit in the app below. */
const REGISTRATIONS_PER_ADDRESS = 3;

describeAboveStorage('dynamic client registration (POST /register)', (kind) => {
  let h: HostedTestApp;
  let address = 0;
  /** A client address no other test of this file uses, so that each meets the limit on its own. */
  const nextAddress = () => `198.51.100.${(address += 1)}`;

  beforeAll(async () => {
    h = await createHostedTestApp(kind, {
      dynamicClientRegistration: {
        enabled: true,
        allowedScopes: ['openid', 'profile', 'email', 'notes:read'],
        audience: MCP_AUDIENCE,
      },
      rateLimits: { clientRegistration: { ip: { limit: REGISTRATIONS_PER_ADDRESS } } },
    });
  });
  afterAll(() => h.close());

  const register = (body: unknown, remoteAddress = nextAddress(), contentType = 'application/json') =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}/register`,
      remoteAddress,
      headers: { 'content-type': contentType },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  /** A form POST to an OAuth endpoint at the auth base. */
  const formPost = (path: string, params: Record<string, string>) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}${path}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(params),
    });
  /** The code of a redirect to the client, exchanged at /token as a public client with PKCE. */
  const exchangeCode = (clientId: string, redirect: URL, verifier: string) =>
    formPost('/token', {
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code') ?? '',
      redirect_uri: CLIENT_REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    });
  const registered = async (body: Record<string, unknown>) => {
    const response = await register(body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Record<string, unknown> & { client_id: string }>();
  };

  it('registers a public client and answers its metadata as registered, never a secret', async () => {
    const response = await register({
      redirect_uris: [CLIENT_REDIRECT_URI],
      client_name: 'Notes assistant',
      scope: 'openid notes:read',
      client_uri: 'https://notes.example',
      software_id: 'notes-assistant',
      software_version: '2.0.1',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const body = response.json<Record<string, unknown>>();
    expect(body).toEqual({
      client_id: expect.stringMatching(/^dcr_[0-9a-f]{32}$/) as unknown,
      client_id_issued_at: Math.floor(h.t.clock.now() / 1000),
      client_name: 'Notes assistant',
      redirect_uris: [CLIENT_REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'openid notes:read',
      client_uri: 'https://notes.example',
      software_id: 'notes-assistant',
      software_version: '2.0.1',
    });
    const [event] = (await h.auditEvents('oauth.client.registered')).filter(
      (row) => row.clientId === body.client_id,
    );
    expect(event).toMatchObject({ actorType: 'client', ipAddress: expect.any(String) as unknown });
    // Without a scope the client may have the whole ceiling, and `scope` says so; an empty one is none.
    expect((await registered({ redirect_uris: [CLIENT_REDIRECT_URI] })).scope).toBe(
      'openid profile email notes:read',
    );
    expect((await registered({ redirect_uris: [CLIENT_REDIRECT_URI], scope: '' })).scope).toBe('');
    // The media type's parameters and case do not matter (RFC 9110 §8.3.1).
    const withCharset = await register(
      { redirect_uris: [CLIENT_REDIRECT_URI] },
      nextAddress(),
      'Application/JSON; charset=utf-8',
    );
    expect(withCharset.statusCode, withCharset.body).toBe(201);
  });

  it('lets a registered client sign a user in with PKCE and consent, for the configured audience', async () => {
    const client = await registered({
      redirect_uris: [CLIENT_REDIRECT_URI],
      client_name: 'Notes assistant',
      scope: 'openid notes:read',
    });
    const user = await h.given.user();
    const pkce = pkcePair();
    const browser = new InjectBrowser(h);
    const consent = await browser.signIn(
      await browser.authorize(
        authorizeQuery(client.client_id, { scope: 'openid notes:read profile' }, pkce.challenge),
      ),
      user.email,
      HOSTED_PASSWORD,
    );
    // A registered client is a third party: the user is asked first, and told who asks.
    expect(consent.statusCode).toBe(200);
    expect(browser.page).toContain('Allow Notes assistant to access your account?');
    expect(browser.page).toContain('registered itself');
    expect(browser.page).toContain('app.example.com');
    const redirect = InjectBrowser.location(await browser.post('/consent/approve'));
    expect(`${redirect.origin}${redirect.pathname}`).toBe(CLIENT_REDIRECT_URI);

    const exchange = await exchangeCode(client.client_id, redirect, pkce.verifier);
    expect(exchange.statusCode, exchange.body).toBe(200);
    const tokens = exchange.json<{ access_token: string; refresh_token: string; scope: string }>();
    // Only what the registration allows: profile was asked for at /authorize and dropped.
    expect(tokens.scope).toBe('openid notes:read');
    expect(decodeJwt(tokens.access_token)).toMatchObject({ sub: user.id, aud: MCP_AUDIENCE });
    const refreshed = await formPost('/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.client_id,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });

  it('lets a client registered without scope ask for OpenID scopes within the ceiling, and get an ID token', async () => {
    const client = await registered({ redirect_uris: [CLIENT_REDIRECT_URI], client_name: 'Scopeless' });
    const user = await h.given.user();
    const pkce = pkcePair();
    const browser = new InjectBrowser(h);
    const consent = await browser.signIn(
      await browser.authorize(
        authorizeQuery(client.client_id, { scope: 'openid profile admin' }, pkce.challenge),
      ),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(consent.statusCode, consent.body).toBe(200);
    // Consent shows what is asked and may be granted: the standard names of openid and profile.
    expect(browser.page).toContain('See your name and username');
    const redirect = InjectBrowser.location(await browser.post('/consent/approve'));
    const exchange = await exchangeCode(client.client_id, redirect, pkce.verifier);
    expect(exchange.statusCode, exchange.body).toBe(200);
    const tokens = exchange.json<{ scope: string; id_token?: string }>();
    // Narrower than asked (admin is beyond the ceiling): RFC 6749 §5.1 wants `scope` said.
    expect(tokens.scope).toBe('openid profile');
    expect(decodeJwt(tokens.id_token ?? '')).toMatchObject({ sub: user.id, name: user.displayName });
  });

  it('tells an app-owned sign-in UI, too, that the client registered itself and where it returns to', async () => {
    const client = await registered({ redirect_uris: [CLIENT_REDIRECT_URI], scope: 'openid' });
    const user = await h.given.user();
    const b = new HeadlessBrowser(h);
    const started = await b.post('/start', headlessStartBody(client.client_id, { scope: 'openid' }));
    const requestId = String(started.json<{ viewModel: { requestId: string } }>().viewModel.requestId);
    await b.post('/identify', { requestId, email: user.email });
    const consent = await b.post('/password/login', { requestId, password: HOSTED_PASSWORD });
    expect(consent.statusCode, consent.body).toBe(200);
    expect(consent.json()).toMatchObject({
      viewModel: { view: 'consent', selfRegistered: { returnsTo: 'app.example.com' } },
    });
  });

  it('registers a device client, whose approval page cautions that it registered itself', async () => {
    const client = await registered({
      redirect_uris: [CLIENT_REDIRECT_URI],
      client_name: 'Notes for TV',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
      scope: 'openid',
    });
    expect(client).toMatchObject({
      grant_types: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      response_types: ['code'],
    });
    const started = await formPost('/device_authorization', { client_id: client.client_id, scope: 'openid' });
    expect(started.statusCode, started.body).toBe(200);
    const user = await h.given.user();
    const approval = await new InjectBrowser(h).signInToApproveDevice(
      started.json<{ verification_uri_complete: string; user_code: string }>(),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(approval.body).toContain('Sign in to Notes for TV on your device?');
    expect(approval.body).toContain('This application registered itself');
    expect(approval.body).not.toContain('Approving sends you to');
  });

  it('gives a registered client none of the first-party helpers', async () => {
    const client = await registered({ redirect_uris: [CLIENT_REDIRECT_URI] });
    const user = await h.given.user();
    const login = await h.inject({
      method: 'POST',
      url: `${h.authBase}/password/login`,
      headers: { 'content-type': 'application/json' },
      payload: { email: user.email, password: HOSTED_PASSWORD, clientId: client.client_id },
    });
    expect(login.statusCode, login.body).toBe(400);
    expect(login.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('shows operators a registered client as one, and lets them deactivate it at once', async () => {
    const client = await registered({
      redirect_uris: [CLIENT_REDIRECT_URI],
      client_name: 'Notes assistant',
      logo_uri: 'https://notes.example/logo.png',
    });
    const read = await h.inject({
      method: 'GET',
      url: `${ADMIN}/clients/${client.client_id}`,
      headers: h.t.operator,
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      clientId: client.client_id,
      name: 'Notes assistant',
      audience: MCP_AUDIENCE,
      isFirstParty: false,
      tokenEndpointAuthMethod: 'none',
      allowClientCredentials: false,
      registration: {
        method: 'dynamic',
        clientUri: null,
        logoUri: 'https://notes.example/logo.png',
        softwareId: null,
        softwareVersion: null,
      },
    });
    const operatorMade = await h.given.client();
    const operatorRead = await h.inject({
      method: 'GET',
      url: `${ADMIN}/clients/${operatorMade.clientId}`,
      headers: h.t.operator,
    });
    expect(operatorRead.json()).toMatchObject({ registration: null });
    const listed = async (query: string) => {
      const response = await h.inject({
        method: 'GET',
        url: `${ADMIN}/clients?${query}`,
        headers: h.t.operator,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response
        .json<{ data: { clientId: string }[] }>()
        .data.map((listedClient) => listedClient.clientId);
    };
    expect(await listed('registration=dynamic&limit=200')).toContain(client.client_id);
    expect(await listed('registration=dynamic&limit=200')).not.toContain(operatorMade.clientId);
    expect(await listed('registration=operator&limit=200')).toEqual([operatorMade.clientId]);
    const unknown = await h.inject({
      method: 'GET',
      url: `${ADMIN}/clients?registration=self`,
      headers: h.t.operator,
    });
    expect(unknown.statusCode).toBe(400);

    const patched = await h.inject({
      method: 'PATCH',
      url: `${ADMIN}/clients/${client.client_id}`,
      headers: h.t.operator,
      payload: { active: false },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const authorize = await new InjectBrowser(h).authorize(authorizeQuery(client.client_id));
    expect(authorize.statusCode).toBe(400);
    expect(authorize.headers.location).toBeUndefined();
  });

  it('names the endpoint in discovery, and advertises the ceiling rather than what registrations asked for', async () => {
    await registered({ redirect_uris: [CLIENT_REDIRECT_URI], scope: 'notes:read' });
    const discovery = await h.inject({
      method: 'GET',
      url: `${h.authBase}/.well-known/openid-configuration`,
    });
    const metadata = discovery.json<{ registration_endpoint: string; scopes_supported: string[] }>();
    expect(metadata.registration_endpoint).toBe(`${h.t.svc.config.issuer}/register`);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['notes:read', 'openid']));
  });

  it('answers a browser preflight from any origin', async () => {
    const preflight = await h.inject({
      method: 'OPTIONS',
      url: `${h.authBase}/register`,
      headers: { origin: 'https://notes.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toContain('content-type');
  });

  it('limits registrations per client address and says when to retry; refused requests are not counted', async () => {
    const from = nextAddress();
    const body = { redirect_uris: [CLIENT_REDIRECT_URI] };
    expect((await register({ redirect_uris: ['http://evil.example/cb'] }, from)).statusCode).toBe(400);
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS; i += 1)
      expect((await register(body, from)).statusCode).toBe(201);
    const refused = await register(body, from);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({
      error: 'rate_limited',
      error_description: expect.stringMatching(
        /^Too many clients were registered from this address; try again in \d+ minutes?\.$/,
      ) as unknown,
    });
    expect((await register(body)).statusCode).toBe(201);
    h.t.clock.advance(60 * 60 * 1000);
    expect((await register(body, from)).statusCode).toBe(201);
  });

  it('refuses malformed requests with a 4xx OAuth error, never a 5xx', async () => {
    const cases: [unknown, string | undefined, number, string][] = [
      ['{"redirect_uris": [', undefined, 400, 'invalid_request'],
      ['', undefined, 400, 'invalid_request'],
      ['[]', undefined, 400, 'invalid_client_metadata'],
      ['null', undefined, 400, 'invalid_client_metadata'],
      [{ client_name: 'No redirect' }, undefined, 400, 'invalid_redirect_uri'],
      [{ redirect_uris: ['http://app.example.com/cb'] }, undefined, 400, 'invalid_redirect_uri'],
      [
        { redirect_uris: [CLIENT_REDIRECT_URI], scope: 'openid admin' },
        undefined,
        400,
        'invalid_client_metadata',
      ],
      [
        { redirect_uris: [CLIENT_REDIRECT_URI], token_endpoint_auth_method: 'client_secret_post' },
        undefined,
        400,
        'invalid_client_metadata',
      ],
      [`{"redirect_uris":${'['.repeat(40)}${']'.repeat(40)}}`, undefined, 400, 'invalid_client_metadata'],
      ['{"__proto__": {"x": 1}, "redirect_uris": []}', undefined, 400, 'invalid_request'],
      [
        'redirect_uris=https://app.example.com/callback',
        'application/x-www-form-urlencoded',
        415,
        'unsupported_media_type',
      ],
      [
        JSON.stringify({ redirect_uris: [CLIENT_REDIRECT_URI], client_name: 'x'.repeat(70_000) }),
        undefined,
        413,
        'payload_too_large',
      ],
    ];
    for (const [body, contentType, status, error] of cases) {
      const response = await register(body, nextAddress(), contentType);
      const what = typeof body === 'string' ? body.slice(0, 60) : JSON.stringify(body);
      expect(response.statusCode, `${what}: ${response.body}`).toBe(status);
      expect(response.json(), what).toMatchObject({
        error,
        error_description: expect.any(String) as unknown,
      });
    }
  });

  // Last: it moves the clock a week on and deletes the unused registrations of the tests above.
  it('notes the first tokens of a registered client, and housekeeping deletes one never used after a week', async () => {
    const unused = await registered({ redirect_uris: [CLIENT_REDIRECT_URI] });
    const used = await registered({ redirect_uris: [CLIENT_REDIRECT_URI], scope: 'openid' });
    const user = await h.given.user();
    const pkce = pkcePair();
    const browser = new InjectBrowser(h);
    await browser.signIn(
      await browser.authorize(authorizeQuery(used.client_id, { scope: 'openid' }, pkce.challenge)),
      user.email,
      HOSTED_PASSWORD,
    );
    const redirect = InjectBrowser.location(await browser.post('/consent/approve'));
    const exchanged = await exchangeCode(used.client_id, redirect, pkce.verifier);
    expect(exchanged.statusCode, exchanged.body).toBe(200);
    const read = (clientId: string) =>
      h.inject({ method: 'GET', url: `${ADMIN}/clients/${clientId}`, headers: h.t.operator });
    expect((await read(used.client_id)).json()).toMatchObject({
      registration: { firstUsedAt: new Date(h.t.clock.now()).toISOString() },
    });
    expect((await read(unused.client_id)).json()).toMatchObject({ registration: { firstUsedAt: null } });

    h.t.clock.advance(6 * 24 * 3_600_000);
    expect((await h.t.svc.housekeeping()).deletedUnusedClients).toBe(0);
    h.t.clock.advance(2 * 24 * 3_600_000);
    expect((await h.t.svc.housekeeping()).deletedUnusedClients).toBeGreaterThan(0);
    expect((await read(unused.client_id)).statusCode).toBe(404);
    expect((await read(used.client_id)).statusCode).toBe(200);
    const [event] = await h.auditEvents('oauth.client.unused_deleted');
    expect(JSON.parse(event?.dataJson ?? '{}')).toMatchObject({
      clientIds: expect.arrayContaining([unused.client_id]) as unknown,
    });
  });
});

describe('dynamic client registration and metadata documents, off (the default)', () => {
  it('maps no route, fetches no document, and names neither in discovery', async () => {
    const t = await createTestSvc('sqlite', { allowInsecureLoopback: true });
    const site = await startLoopbackServer();
    try {
      const documentUrl = `${site.origin}/client.json`;
      const authorize = await t.svc.app.inject({
        method: 'GET',
        url: `${t.svc.config.authBase}/authorize?${new URLSearchParams(authorizeQuery(documentUrl)).toString()}`,
      });
      expect(authorize.statusCode).toBe(400);
      expect(authorize.body).toContain('The client is unknown or disabled.');
      expect(site.requests).toEqual([]);
      const response = await t.svc.app.inject({
        method: 'POST',
        url: `${t.svc.config.authBase}/register`,
        headers: { 'content-type': 'application/json' },
        payload: { redirect_uris: [CLIENT_REDIRECT_URI] },
      });
      expect(response.statusCode).toBe(404);
      const discovery = await t.svc.app.inject({
        method: 'GET',
        url: `${t.svc.config.authBase}/.well-known/openid-configuration`,
      });
      expect(discovery.json()).not.toHaveProperty('registration_endpoint');
      expect(discovery.json()).not.toHaveProperty('client_id_metadata_document_supported');
    } finally {
      await site.close();
      await t.close();
    }
  });
});
