import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_REDIRECT_URI, authorizeQuery, pkcePair } from '../../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import {
  startLoopbackServer,
  type LoopbackServer,
} from '../../../test-support/federation/loopback-server.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../../test-support/hosted-test-app.js';
import { HeadlessBrowser, headlessStartBody } from '../../../test-support/headless-browser.js';
import { InjectBrowser } from '../../../test-support/inject-browser.js';
import { form } from '../../../test-support/oauth-http.js';

const ADMIN = '/svc/admin/auth/api';
const API_AUDIENCE = 'https://notes-api.example.com';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** rateLimits.clientMetadataFetch.ip.limit in the app below. */
const FETCHES_PER_ADDRESS = 3;

/** What the client's site answers for one document path. */
interface Served {
  status?: number;
  contentType?: string;
  cacheControl?: string;
  headers?: Record<string, string>;
  body: string;
}

describeAboveStorage('Client ID Metadata Documents', (kind) => {
  let h: HostedTestApp;
  let site: LoopbackServer;
  const documents = new Map<string, Served>();
  let address = 0;
  /** A client address no other test of this file uses, so that each meets the fetch limit on its own. */
  const nextAddress = () => `203.0.113.${(address += 1)}`;
  let names = 0;
  /** A fresh document URL on the client's site, serving `metadata` (with its own URL as client_id). */
  const publish = (metadata: Record<string, unknown>, served: Omit<Served, 'body'> = {}) => {
    const path = `/apps/app-${(names += 1)}.json`;
    const clientId = `${site.origin}${path}`;
    documents.set(path, { ...served, body: JSON.stringify({ client_id: clientId, ...metadata }) });
    return { clientId, path };
  };
  const authorize = (query: Record<string, string>, remoteAddress = nextAddress()) =>
    h.inject({
      method: 'GET',
      url: `${h.authBase}/authorize?${new URLSearchParams(query).toString()}`,
      remoteAddress,
    });
  const formPost = (path: string, params: Record<string, string>, remoteAddress = nextAddress()) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}${path}`,
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(params),
    });
  const operatorGet = (path: string) =>
    h.inject({ method: 'GET', url: `${ADMIN}${path}`, headers: h.t.operator });

  beforeAll(async () => {
    site = await startLoopbackServer();
    site.serve((request, response) => {
      const served = documents.get(request.url ?? '');
      if (served === undefined) {
        response.statusCode = 404;
        response.end();
        return;
      }
      response.statusCode = served.status ?? 200;
      response.setHeader('content-type', served.contentType ?? 'application/json');
      if (served.cacheControl !== undefined) response.setHeader('cache-control', served.cacheControl);
      for (const [name, value] of Object.entries(served.headers ?? {})) response.setHeader(name, value);
      response.end(served.body);
    });
    h = await createHostedTestApp(kind, {
      clientIdMetadataDocuments: {
        enabled: true,
        // The client's site is this machine: opted in, as an operator would for a local app.
        allowLoopback: true,
        allowedHosts: ['127.0.0.1'],
        allowedScopes: ['openid', 'profile', 'notes:read'],
        audience: API_AUDIENCE,
      },
      rateLimits: { clientMetadataFetch: { ip: { limit: FETCHES_PER_ADDRESS } } },
    });
  });
  afterAll(async () => {
    await h.close();
    await site.close();
  });

  it('signs a user in for a client known only by its document: consent names the document host, tokens are for the configured audience', async () => {
    const { clientId, path } = publish({
      client_name: 'Notes assistant',
      redirect_uris: [CLIENT_REDIRECT_URI],
      scope: 'openid notes:read',
    });
    const user = await h.given.user();
    const pkce = pkcePair();
    const browser = new InjectBrowser(h);
    const consent = await browser.signIn(
      await browser.authorize(
        authorizeQuery(clientId, { scope: 'openid notes:read profile' }, pkce.challenge),
      ),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(consent.statusCode, consent.body).toBe(200);
    expect(browser.page).toContain('Allow Notes assistant to access your account?');
    expect(browser.page).toContain(
      `This application is described by <strong>${new URL(clientId).host}</strong>`,
    );
    expect(browser.page).toContain('Approving sends you to <strong>app.example.com</strong>');
    const redirect = InjectBrowser.location(await browser.post('/consent/approve'));
    expect(`${redirect.origin}${redirect.pathname}`).toBe(CLIENT_REDIRECT_URI);

    const exchange = await formPost('/token', {
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code') ?? '',
      redirect_uri: CLIENT_REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
    });
    expect(exchange.statusCode, exchange.body).toBe(200);
    const tokens = exchange.json<{ access_token: string; refresh_token: string; scope: string }>();
    expect(tokens.scope).toBe('openid notes:read');
    expect(decodeJwt(tokens.access_token)).toMatchObject({
      sub: user.id,
      aud: API_AUDIENCE,
      client_id: clientId,
    });
    const refreshed = await formPost('/token', {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    // The document was fetched once: the token endpoint reads the stored client.
    expect(site.count(path)).toBe(1);
    const [registered] = (await h.auditEvents('oauth.client.registered')).filter(
      (row) => row.clientId === clientId,
    );
    expect(JSON.parse(registered?.dataJson ?? '{}')).toMatchObject({ method: 'metadata_document' });
  });

  it('lets a document without scope ask for any scope within the ceiling, shown at consent: openid profile gets an ID token', async () => {
    const { clientId } = publish({ client_name: 'Scopeless notes', redirect_uris: [CLIENT_REDIRECT_URI] });
    const user = await h.given.user();
    const pkce = pkcePair();
    const browser = new InjectBrowser(h);
    const consent = await browser.signIn(
      await browser.authorize(authorizeQuery(clientId, { scope: 'openid profile admin' }, pkce.challenge)),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(consent.statusCode, consent.body).toBe(200);
    expect(browser.page).toContain('Allow Scopeless notes to access your account?');
    expect(browser.page).toContain('See your name and username');
    const redirect = InjectBrowser.location(await browser.post('/consent/approve'));
    const exchange = await formPost('/token', {
      grant_type: 'authorization_code',
      code: redirect.searchParams.get('code') ?? '',
      redirect_uri: CLIENT_REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
    });
    expect(exchange.statusCode, exchange.body).toBe(200);
    const tokens = exchange.json<{ scope: string; id_token?: string }>();
    // Narrower than asked (admin is beyond the ceiling): RFC 6749 §5.1 wants `scope` said.
    expect(tokens.scope).toBe('openid profile');
    expect(decodeJwt(tokens.id_token ?? '')).toMatchObject({ sub: user.id, name: user.displayName });
    const stored = await operatorGet(`/clients/${encodeURIComponent(clientId)}`);
    expect(stored.json()).toMatchObject({ allowedScopes: ['openid', 'profile', 'notes:read'] });
  });

  it('uses the stored copy while it is fresh, then fetches the document again and follows its changes', async () => {
    const { clientId, path } = publish(
      { redirect_uris: [CLIENT_REDIRECT_URI], scope: 'openid' },
      { cacheControl: 'public, max-age=600' },
    );
    expect((await authorize(authorizeQuery(clientId))).statusCode).toBe(302);
    expect((await authorize(authorizeQuery(clientId))).statusCode).toBe(302);
    expect(site.count(path)).toBe(1);

    const moved = 'https://app.example.com/v2/callback';
    documents.set(path, {
      body: JSON.stringify({
        client_id: clientId,
        client_name: 'Notes v2',
        redirect_uris: [moved],
        scope: 'openid',
      }),
    });
    h.t.clock.advance(601_000);
    const old = await authorize(authorizeQuery(clientId));
    expect(site.count(path)).toBe(2);
    expect(old.statusCode).toBe(400);
    expect(old.body).toContain('The redirect_uri is not registered for this client.');
    expect((await authorize(authorizeQuery(clientId, { redirect_uri: moved }))).statusCode).toBe(302);
    const [changed] = (await h.auditEvents('oauth.client.document_changed')).filter(
      (row) => row.clientId === clientId,
    );
    expect(JSON.parse(changed?.dataJson ?? '{}')).toMatchObject({ changed: ['name', 'redirectUris'] });

    // A failed fetch of a stale copy refuses the request, and keeps the copy stale (errors are not cached).
    documents.set(path, { status: 500, body: '' });
    h.t.clock.advance(3_600_000);
    const failed = await authorize(authorizeQuery(clientId, { redirect_uri: moved }));
    expect(failed.statusCode).toBe(400);
    expect(failed.body).toContain('could not be fetched: it answered 500 instead of 200');
    expect(failed.headers.location).toBeUndefined();
  });

  it('refuses a document that breaks a rule, saying which, and stores nothing', async () => {
    const valid = { redirect_uris: [CLIENT_REDIRECT_URI] };
    const cases: [string, () => string, string][] = [
      [
        'another client_id',
        () => publish({ ...valid, client_id: 'https://elsewhere.example/app.json' }).clientId,
        'its client_id must be exactly the URL it is served from',
      ],
      [
        'a secret',
        () => publish({ ...valid, client_secret: 's3cret' }).clientId,
        'must not hold a client_secret',
      ],
      [
        'secret-based authentication',
        () => publish({ ...valid, token_endpoint_auth_method: 'client_secret_basic' }).clientId,
        'use none',
      ],
      ['no redirect URIs', () => publish({}).clientId, 'redirect_uris'],
      [
        'a scope beyond the ceiling',
        () => publish({ ...valid, scope: 'openid admin' }).clientId,
        'admin is not available',
      ],
      [
        'another media type',
        () => publish(valid, { contentType: 'text/html' }).clientId,
        'must be served as application/json',
      ],
      [
        'a redirect',
        () => publish(valid, { status: 302, headers: { location: '/apps/app-1.json' } }).clientId,
        'redirect (302), which is not followed',
      ],
      ['a missing document', () => `${site.origin}/apps/missing.json`, 'it answered 404'],
      [
        'a document over 5 KiB',
        () => publish({ ...valid, client_name: 'x'.repeat(5_200) }).clientId,
        'larger than 5120 bytes',
      ],
      ['a client_id without a path', () => `${site.origin}/`, 'it must have a path'],
      ['a client_id not in normal form', () => `${site.origin}/apps/../apps/app-1.json`, 'normal form'],
      ['a client_id with a fragment', () => `${site.origin}/apps/app-1.json#x`, 'must not have a fragment'],
      [
        'a host not allowed',
        () => `${site.origin.replace('127.0.0.1', 'localhost')}/apps/app-1.json`,
        'does not accept client metadata documents from localhost',
      ],
    ];
    for (const [name, clientIdOf, message] of cases) {
      const clientId = clientIdOf();
      const response = await authorize(authorizeQuery(clientId));
      expect(response.statusCode, name).toBe(400);
      expect(response.headers.location, name).toBeUndefined();
      expect(response.body, name).toContain(message);
      expect((await operatorGet(`/clients/${encodeURIComponent(clientId)}`)).statusCode, name).toBe(404);
    }
  });

  it('starts a device authorization for a document that asks for the device grant, and only then', async () => {
    const tv = publish({
      client_name: 'Notes for TV',
      redirect_uris: [CLIENT_REDIRECT_URI],
      grant_types: [DEVICE_GRANT],
    });
    const started = await formPost('/device_authorization', { client_id: tv.clientId, scope: 'openid' });
    expect(started.statusCode, started.body).toBe(200);
    const user = await h.given.user();
    const approval = await new InjectBrowser(h).signInToApproveDevice(
      started.json<{ verification_uri_complete: string; user_code: string }>(),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(approval.body).toContain('Sign in to Notes for TV on your device?');
    expect(approval.body).toContain('This application is described by');

    const web = publish({ redirect_uris: [CLIENT_REDIRECT_URI] });
    const refused = await formPost('/device_authorization', { client_id: web.clientId });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'unauthorized_client' });
    const broken = await formPost('/device_authorization', { client_id: `${site.origin}/apps/missing.json` });
    expect(broken.statusCode, broken.body).toBe(401);
    // The in-process start fetches a document as the endpoint does.
    const appliance = publish({ redirect_uris: [CLIENT_REDIRECT_URI], grant_types: [DEVICE_GRANT] });
    const inProcess = await h.t.svc.auth.startDeviceAuthorizationAsync(
      { clientId: appliance.clientId, scope: 'openid', resource: null },
      { ipAddress: nextAddress() },
    );
    expect(inProcess.userCode).toEqual(expect.any(String));
    expect(site.count(appliance.path)).toBe(1);
    await expect(
      h.t.svc.auth.startDeviceAuthorizationAsync({
        clientId: `${site.origin}/apps/missing.json`,
        scope: null,
        resource: null,
      }),
    ).rejects.toMatchObject({ code: 'invalid_client', message: expect.stringContaining('404') as unknown });
    // Malformed URLs are refused before any look-up: a 401, never a 5xx.
    for (const clientId of [`https://a.example/${'x'.repeat(3_000)}`, 'https://a.example/\u0000x']) {
      const malformed = await formPost('/device_authorization', { client_id: clientId });
      expect(malformed.statusCode, malformed.body).toBe(401);
    }
    expect(broken.json()).toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringContaining('404') as unknown,
    });
  });

  it('tells an app-owned sign-in UI where the client is described', async () => {
    const { clientId } = publish({ redirect_uris: [CLIENT_REDIRECT_URI], scope: 'openid' });
    const user = await h.given.user();
    const b = new HeadlessBrowser(h);
    const started = await b.post('/start', headlessStartBody(clientId, { scope: 'openid' }));
    expect(started.statusCode, started.body).toBe(200);
    const requestId = String(started.json<{ viewModel: { requestId: string } }>().viewModel.requestId);
    await b.post('/identify', { requestId, email: user.email });
    const consent = await b.post('/password/login', { requestId, password: HOSTED_PASSWORD });
    expect(consent.json()).toMatchObject({
      viewModel: {
        view: 'consent',
        selfRegistered: { returnsTo: 'app.example.com', documentHost: new URL(clientId).host },
      },
    });
  });

  it('gives such a client none of the first-party helpers', async () => {
    const { clientId } = publish({ redirect_uris: [CLIENT_REDIRECT_URI] });
    expect((await authorize(authorizeQuery(clientId))).statusCode).toBe(302);
    const user = await h.given.user();
    const login = await h.inject({
      method: 'POST',
      url: `${h.authBase}/password/login`,
      headers: { 'content-type': 'application/json' },
      payload: { email: user.email, password: HOSTED_PASSWORD, clientId },
    });
    expect(login.statusCode, login.body).toBe(400);
    expect(login.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('shows operators the client and its fetch times; their changes hold, and so does a deactivation: the document is not fetched again', async () => {
    const { clientId, path } = publish({
      client_name: 'Notes web',
      redirect_uris: [CLIENT_REDIRECT_URI],
      client_uri: 'https://notes.example',
    });
    expect((await authorize(authorizeQuery(clientId))).statusCode).toBe(302);
    const read = await operatorGet(`/clients/${encodeURIComponent(clientId)}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      clientId,
      name: 'Notes web',
      isFirstParty: false,
      tokenEndpointAuthMethod: 'none',
      audience: API_AUDIENCE,
      registration: {
        method: 'metadata_document',
        clientUri: 'https://notes.example',
        document: {
          fetchedAt: new Date(h.t.clock.now()).toISOString(),
          freshUntil: new Date(h.t.clock.now() + 3_600_000).toISOString(),
        },
      },
    });
    const listed = await operatorGet('/clients?registration=metadata_document&limit=200');
    expect(listed.json<{ data: { clientId: string }[] }>().data.map((c) => c.clientId)).toContain(clientId);
    const dynamicOnly = await operatorGet('/clients?registration=dynamic&limit=200');
    expect(dynamicOnly.json<{ data: { clientId: string }[] }>().data.map((c) => c.clientId)).not.toContain(
      clientId,
    );

    const patch = (payload: Record<string, unknown>) =>
      h.inject({
        method: 'PATCH',
        url: `${ADMIN}/clients/${encodeURIComponent(clientId)}`,
        headers: h.t.operator,
        payload,
      });
    // What the document decides would be undone by the next fetch: refused, saying where to change it.
    const fromDocument = await patch({ name: 'Renamed', redirectUris: ['https://elsewhere.example/cb'] });
    expect(fromDocument.statusCode, fromDocument.body).toBe(400);
    expect(fromDocument.body).toContain(
      `name, redirectUris of this client come from its metadata document at ${clientId}`,
    );
    // The rest is the operator's, and a new fetch keeps it.
    expect((await patch({ audience: 'https://other-api.example' })).statusCode).toBe(200);
    h.t.clock.advance(2 * 3_600_000);
    expect((await authorize(authorizeQuery(clientId))).statusCode).toBe(302);
    expect(site.count(path)).toBe(2);
    expect((await operatorGet(`/clients/${encodeURIComponent(clientId)}`)).json()).toMatchObject({
      name: 'Notes web',
      audience: 'https://other-api.example',
    });

    expect((await patch({ active: false })).statusCode).toBe(200);
    h.t.clock.advance(2 * 3_600_000);
    const refused = await authorize(authorizeQuery(clientId));
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The client is unknown or disabled.');
    expect(site.count(path)).toBe(2);
  });

  it("uses an operator's client under a URL as stored, wherever the URL points, and fetches nothing", async () => {
    const clientId = 'https://partner.example/Apps/../app';
    await h.given.client({ clientId, isFirstParty: false, redirectUris: [CLIENT_REDIRECT_URI] });
    const requestsBefore = site.requests.length;
    expect((await authorize(authorizeQuery(clientId))).statusCode).toBe(302);
    expect(site.requests.length).toBe(requestsBefore);
  });

  it('says so in discovery, and advertises the scope ceiling', async () => {
    const discovery = await h.inject({
      method: 'GET',
      url: `${h.authBase}/.well-known/openid-configuration`,
    });
    const metadata = discovery.json<{
      client_id_metadata_document_supported: boolean;
      scopes_supported: string[];
    }>();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['notes:read']));
    expect(metadata).not.toHaveProperty('registration_endpoint');
  });

  it('limits fetches per client address and says when to retry; a fresh stored copy costs nothing', async () => {
    const from = nextAddress();
    const stored = publish({ redirect_uris: [CLIENT_REDIRECT_URI] });
    expect((await authorize(authorizeQuery(stored.clientId), from)).statusCode).toBe(302);
    for (let i = 1; i < FETCHES_PER_ADDRESS; i += 1) {
      const { clientId } = publish({ redirect_uris: [CLIENT_REDIRECT_URI] });
      expect((await authorize(authorizeQuery(clientId), from)).statusCode).toBe(302);
    }
    const next = publish({ redirect_uris: [CLIENT_REDIRECT_URI] });
    const refused = await authorize(authorizeQuery(next.clientId), from);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(
      /Too many client metadata documents were fetched for this address; try again in \d+ minutes?\./,
    );
    expect(site.count(next.path)).toBe(0);
    expect((await authorize(authorizeQuery(stored.clientId), from)).statusCode).toBe(302);
    expect((await authorize(authorizeQuery(next.clientId))).statusCode).toBe(302);
  });
});
