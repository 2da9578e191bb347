import {
  DEFAULT_HEADLESS_BASE_PATH,
  headlessActionResultSchema,
  headlessMfaEnrollViewModelSchema,
  type SvcCreatedClient,
  type SvcHeadlessActionResult,
  type SvcHeadlessStartBody,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../config/resolve.js';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { MINUTE_MS } from '../kernel/clock.js';
import { CLIENT_REDIRECT_URI, pkcePair } from '../test-support/authorize-params.js';
import { authenticatorCode, scanProvisioningUri, wrongCode } from '../test-support/authenticator-app.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { HeadlessBrowser } from '../test-support/headless-browser.js';
import { createHostedTestApp, HOSTED_PASSWORD, type HostedTestApp } from '../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../test-support/inject-browser.js';
import { organizationMfaPolicy } from '../test-support/mfa.js';
import { form } from '../test-support/oauth-http.js';

/** A valid /start body for the client (S256 PKCE, a state); `extra` overrides fields. */
function startBody(clientId: string, challenge: string, extra: Partial<SvcHeadlessStartBody> = {}) {
  return {
    responseType: 'code',
    clientId,
    redirectUri: CLIENT_REDIRECT_URI,
    codeChallenge: challenge,
    codeChallengeMethod: 'S256',
    state: 'state-123',
    scope: 'openid profile email',
    ...extra,
  };
}

/** The action result of a 200 answer, checked against the contract schema. */
function resultOf(
  response: LightMyRequestResponse,
  status = 200,
): SvcHeadlessActionResult & Record<string, unknown> {
  expect(response.statusCode, response.body.slice(0, 400)).toBe(status);
  const body = response.json<SvcHeadlessActionResult & Record<string, unknown>>();
  headlessActionResultSchema.parse(body);
  return body;
}

describeEachDatabase('headless sign-in API', (kind) => {
  let h: HostedTestApp;
  let web: SvcCreatedClient;
  let thirdParty: SvcCreatedClient;

  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    web = await h.given.client();
    thirdParty = await h.given.client({ isFirstParty: false });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A user with the password, member of one organization (or of the ones given). */
  async function member(organizations = 1) {
    const user = await h.given.user();
    const orgs = [];
    for (let i = 0; i < organizations; i += 1) orgs.push(await h.given.organization(undefined, user.id));
    return { user, orgs };
  }

  /** /start, /identify and /password/login in a new browser; the last answer. */
  async function signIn(email: string, client = web, extra: Partial<SvcHeadlessStartBody> = {}) {
    const b = new HeadlessBrowser(h);
    const pkce = pkcePair();
    const started = resultOf(await b.post('/start', startBody(client.clientId, pkce.challenge, extra)));
    const requestId = started.viewModel?.requestId ?? '';
    resultOf(await b.post('/identify', { requestId, email }));
    const response = await b.post('/password/login', { requestId, password: HOSTED_PASSWORD });
    return { b, pkce, requestId, response };
  }

  it('password → organization → forced MFA enrollment → consent → a code that /token exchanges with the verifier', async () => {
    const { user, orgs } = await member(2);
    const [chosen, other] = orgs;
    await h.t.svc.admin.updateOrganizationMfaPolicyAsync(
      chosen?.id ?? '',
      organizationMfaPolicy({ requireMfaForAllUsers: true }),
    );
    const b = new HeadlessBrowser(h);
    const pkce = pkcePair();

    const startResponse = await b.post('/start', startBody(thirdParty.clientId, pkce.challenge));
    const started = resultOf(startResponse);
    expect(startResponse.headers['cache-control']).toBe('no-store');
    expect(started).toMatchObject({ type: 'view', redirectUrl: null });
    expect(started.viewModel).toMatchObject({
      view: 'svc',
      email: null,
      clientName: thirdParty.name,
      settings: { enabledCredentialTypes: expect.arrayContaining(['password']) },
      providers: [],
      organizationSelection: null,
    });
    const requestId = started.viewModel?.requestId ?? '';
    expect(requestId).toMatch(/^azr_/);
    const browserCookie = setCookies(startResponse).find((c) => c.name === 'svc_af');
    expect(browserCookie?.attributes).toMatchObject({ httponly: '', samesite: 'Lax', path: h.authBase });

    expect(resultOf(await b.get(`/requests/${requestId}`))).toEqual(started);

    const password = resultOf(await b.post('/identify', { requestId, Email: user.email }));
    expect(password.viewModel).toMatchObject({ view: 'password', requestId, email: user.email });

    const wrong = resultOf(await b.post('/password/login', { requestId, password: 'wrong password' }), 400);
    expect(wrong).toMatchObject({
      error: 'invalid_credentials',
      message: 'Email or password is incorrect.',
      type: 'view',
      viewModel: { view: 'password', requestId },
    });

    const choose = resultOf(await b.post('/password/login', { requestId, password: HOSTED_PASSWORD }));
    expect(choose.viewModel?.view).toBe('organization');
    expect(choose.viewModel?.organizationSelection?.pendingToken).toMatch(/.{20,}/);
    expect(choose.viewModel?.organizationSelection?.organizations.map((o) => o.id).sort()).toEqual(
      [chosen?.id, other?.id].sort(),
    );

    // Without the view's token the server uses a fresh one of this request.
    const enroll = resultOf(
      await b.post('/organization/select', { requestId, organizationId: chosen?.id ?? '' }),
    );
    expect(enroll.viewModel).toMatchObject({ view: 'mfa-enroll', requestId });
    // docs/reference/sign-in.md "Headless API": enrollment start returns Secret, ProvisioningUri, QrCodeDataUrl, … ExpiresAt.
    const setup = headlessMfaEnrollViewModelSchema.parse(enroll.viewModel);
    const { secret } = setup;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(scanProvisioningUri(setup.provisioningUri)).toMatchObject({ secret, label: user.email });
    expect(setup.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    expect(Date.parse(setup.expiresAt)).toBe(h.t.clock.now() + 10 * MINUTE_MS);
    expect(resultOf(await b.post('/mfa/totp/enroll/start', { requestId })).viewModel?.secret).toBe(secret);

    const badCode = resultOf(
      await b.post('/mfa/totp/enroll/verify', { requestId, code: wrongCode(secret, h.t.clock.now()) }),
      400,
    );
    expect(badCode).toMatchObject({ error: 'mfa_code_invalid', viewModel: { view: 'mfa-enroll', secret } });

    const enrolledResponse = await b.post('/mfa/totp/enroll/verify', {
      requestId,
      code: authenticatorCode(secret, h.t.clock.now()),
    });
    const enrolled = resultOf(enrolledResponse);
    expect(enrolled.type).toBe('view');
    expect(enrolled.viewModel?.view).toBe('mfa-enroll');
    expect(enrolled.viewModel?.recoveryCodes).toHaveLength(10);
    const session = setCookies(enrolledResponse).find((c) => c.name === 'svc_session');
    expect(session?.attributes).toMatchObject({ httponly: '', samesite: 'Lax', path: h.authBase });

    const consent = resultOf(await b.get(`/requests/${requestId}`));
    expect(consent.viewModel).toMatchObject({
      view: 'consent',
      scopes: ['openid', 'profile', 'email'],
      userEmail: user.email,
      organizationName: chosen?.name,
      selfRegistered: null,
    });
    const consentToken = String(consent.viewModel?.consentToken);

    const forged = resultOf(
      await b.post('/consent/approve', { requestId, consentToken: `${consentToken}x` }),
      400,
    );
    expect(forged).toMatchObject({ error: 'consent_token_invalid', viewModel: { view: 'consent' } });

    const done = resultOf(await b.post('/consent/approve', { requestId, consentToken }));
    expect(done.type).toBe('redirect');
    expect(done.viewModel).toBeNull();
    const location = new URL(done.redirectUrl ?? '');
    expect(location.origin + location.pathname).toBe(CLIENT_REDIRECT_URI);
    expect(done.authorization).toEqual({
      code: location.searchParams.get('code'),
      redirectUri: CLIENT_REDIRECT_URI,
      state: 'state-123',
    });

    const token = await h.inject({
      method: 'POST',
      url: `${h.authBase}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({
        grant_type: 'authorization_code',
        client_id: thirdParty.clientId,
        code: done.authorization?.code ?? '',
        redirect_uri: CLIENT_REDIRECT_URI,
        code_verifier: pkce.verifier,
      }),
    });
    expect(token.statusCode, token.body).toBe(200);
    const tokens = token.json<{ access_token: string }>();
    const validated = await h.t.svc.authEngine.tokens.accessTokens.validate(tokens.access_token, {
      audience: null,
    });
    expect(validated?.session.amr).toEqual(['pwd', 'otp', 'mfa']);

    // The request is finished: one answer for it from now on.
    const after = await b.get(`/requests/${requestId}`);
    expect(after.statusCode).toBe(400);
    expect(after.json()).toMatchObject({ error: 'auth_request_expired' });
  });

  it('/start never reuses the issuer session silently, although /authorize would', async () => {
    const { user } = await member();
    const { b, response } = await signIn(user.email);
    const first = resultOf(response);
    expect(first.type).toBe('redirect');
    expect(b.cookies.get('svc_session')).toBeTruthy();

    const again = resultOf(await b.post('/start', startBody(web.clientId, pkcePair().challenge)));
    expect(again).toMatchObject({ type: 'view', viewModel: { view: 'svc' } });

    // The same cookies at the hosted /authorize: the session is reused and the client gets a code.
    const hosted = new InjectBrowser(h);
    for (const [name, value] of b.cookies) hosted.cookies.set(name, value);
    const silent = await hosted.authorize({
      response_type: 'code',
      client_id: web.clientId,
      redirect_uri: CLIENT_REDIRECT_URI,
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    });
    expect(InjectBrowser.location(silent).searchParams.get('code')).toBeTruthy();
  });

  it('deny redirects with access_denied and no authorization data', async () => {
    const { user } = await member();
    const { b, requestId, response } = await signIn(user.email, thirdParty);
    const consent = resultOf(response);
    expect(consent.viewModel?.view).toBe('consent');
    const denied = resultOf(
      await b.post('/consent/deny', { requestId, consentToken: String(consent.viewModel?.consentToken) }),
    );
    expect(denied.type).toBe('redirect');
    expect(denied.authorization).toBeNull();
    const location = new URL(denied.redirectUrl ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-123');
  });

  it('MFA verify: a wrong code comes back with 400, the right one completes', async () => {
    const { user, orgs } = await member();
    await h.t.svc.admin.updateOrganizationMfaPolicyAsync(
      orgs[0]?.id ?? '',
      organizationMfaPolicy({ requireMfaForAllUsers: true }),
    );
    const first = await signIn(user.email);
    const secret = String(resultOf(first.response).viewModel?.secret);
    // Enrollment that completes the request: the redirect, with the recovery codes to show first.
    const enrolled = resultOf(
      await first.b.post('/mfa/totp/enroll/verify', {
        requestId: first.requestId,
        code: authenticatorCode(secret, h.t.clock.now()),
      }),
    );
    expect(enrolled.type).toBe('redirect');
    expect(enrolled.authorization?.code).toBeTruthy();
    expect(enrolled.viewModel?.view).toBe('mfa-enroll');
    expect(enrolled.viewModel?.recoveryCodes).toHaveLength(10);
    h.t.clock.advance(60_000);

    const { b, requestId, response } = await signIn(user.email);
    expect(resultOf(response).viewModel).toMatchObject({ view: 'mfa', recoveryCodeOffered: true });
    const wrong = resultOf(
      await b.post('/mfa/verify', { requestId, code: wrongCode(secret, h.t.clock.now()) }),
      400,
    );
    expect(wrong).toMatchObject({ error: 'mfa_code_invalid', viewModel: { view: 'mfa' } });
    const done = resultOf(
      await b.post('/mfa/verify', { requestId, code: authenticatorCode(secret, h.t.clock.now()) }),
    );
    expect(done.type).toBe('redirect');
    expect(done.authorization?.code).toBeTruthy();
  });

  it('a request answers only the browser that started it, with one body for every reason', async () => {
    const { user } = await member();
    const { requestId } = await signIn(user.email, thirdParty);
    const stranger = new HeadlessBrowser(h);
    const expired = {
      error: 'auth_request_expired',
      message: expect.stringContaining('no longer valid') as unknown,
    };
    const foreign = await stranger.get(`/requests/${requestId}`);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual(expired);
    const unknown = await stranger.post('/identify', { requestId: 'azr_unknown', email: user.email });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toBe(foreign.body);
  });

  it('validation failures are 400 bodies naming the problem, never 500', async () => {
    const b = new HeadlessBrowser(h);
    const cases: [string, unknown, Record<string, string>?][] = [
      ['/start', '{not json'],
      ['/start', []],
      ['/start', { ...startBody(web.clientId, 'short'), codeChallengeMethod: 'plain' }],
      ['/identify', { email: 'a@example.com' }],
      ['/password/login', { requestId: 'azr_x', password: 12 }],
      ['/organization/select', { requestId: 'azr_x' }],
      ['/consent/approve', { requestId: 'azr_x' }],
      ['/identify', 'requestId=azr_x', { 'content-type': 'text/plain' }],
    ];
    for (const [path, body, headers] of cases) {
      const response = await b.post(path, body, headers);
      expect(response.statusCode, `${path} ${response.body}`).toBe(400);
      const json = response.json<{ error: string; message: string }>();
      expect(json.error, path).toMatch(/^invalid_request$/);
      expect(json.message.length).toBeGreaterThan(0);
    }
    const details = await b.post('/start', { ...startBody(web.clientId, 'short') });
    expect(details.json()).toMatchObject({
      error: 'invalid_request',
      details: [{ path: 'codeChallenge', message: expect.stringContaining('43-character') as unknown }],
    });

    // A uiContext is written back as JSON text: nested 50,000 deep it would overflow the stack.
    const start = JSON.stringify(startBody(web.clientId, pkcePair().challenge));
    const nested = `${start.slice(0, -1)},"uiContext":{"a":${'['.repeat(50_000)}${']'.repeat(50_000)}}}`;
    const deep = await b.post('/start', nested);
    expect(deep.statusCode, deep.body).toBe(400);
    expect(deep.json()).toMatchObject({ error: 'invalid_request', details: [{ path: 'uiContext' }] });

    const unknownClient = await b.post('/start', startBody('no-such-client', pkcePair().challenge));
    expect(unknownClient.statusCode).toBe(400);
    expect(unknownClient.json()).toMatchObject({ error: 'invalid_client' });

    const silent = resultOf(
      await b.post('/start', startBody(web.clientId, pkcePair().challenge, { prompt: 'none' })),
    );
    expect(new URL(silent.redirectUrl ?? '').searchParams.get('error')).toBe('login_required');
  });
});

describe('headless API configuration', () => {
  it('EnableApi=false: every headless route answers like an unknown route (404)', async () => {
    const h = await createHostedTestApp('sqlite', { enableApi: false });
    try {
      const b = new HeadlessBrowser(h);
      for (const response of [
        await b.post('/start', startBody('web', pkcePair().challenge)),
        await b.get('/requests/azr_x'),
        await b.options('/start', {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
        }),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND_BODY);
      }
    } finally {
      await h.close();
    }
  });

  it('a configured base path under the auth base moves the API; one outside it is refused at start', async () => {
    const h = await createHostedTestApp('sqlite', { headlessApiBasePath: '/svc/auth/custom-ui' });
    try {
      const client = await h.given.client();
      const moved = new HeadlessBrowser(h, null, '/svc/auth/custom-ui');
      expect(
        resultOf(await moved.post('/start', startBody(client.clientId, pkcePair().challenge))).type,
      ).toBe('view');
      expect((await new HeadlessBrowser(h).post('/start', startBody(client.clientId, 'x'))).statusCode).toBe(
        404,
      );
    } finally {
      await h.close();
    }
    await expect(
      createHostedTestApp('sqlite', { headlessApiBasePath: '/elsewhere/headless' }),
    ).rejects.toThrow(/headlessApiBasePath must be a path under the auth base/);
  });

  it('allowed origins must be exact origins; the defaults are the auth base path and none', () => {
    expect(resolveConfig({}, 'test').headless).toEqual({
      enabled: true,
      basePath: DEFAULT_HEADLESS_BASE_PATH,
      allowedOrigins: [],
      uiUrl: null,
    });
    expect(
      resolveConfig({ headlessAllowedOrigins: ['https://app.example.com'] }, 'test').headless.allowedOrigins,
    ).toEqual(['https://app.example.com']);
    for (const origin of ['https://app.example.com/', 'app.example.com', 'ftp://app.example.com', '*']) {
      expect(() => resolveConfig({ headlessAllowedOrigins: [origin] }, 'test')).toThrow(
        /headlessAllowedOrigins/,
      );
    }
  });

  describe('credentialed CORS for configured origins only', () => {
    const APP = 'https://app.example.com';
    let h: HostedTestApp;
    let client: SvcCreatedClient;
    beforeAll(async () => {
      h = await createHostedTestApp('sqlite', {
        publicOrigin: 'https://id.example.com',
        headlessAllowedOrigins: [APP],
      });
      client = await h.given.client();
    });
    afterAll(async () => {
      await h.close();
    });

    it('an allowed origin gets its exact origin with credentials, and SameSite=None; Secure cookies', async () => {
      const b = new HeadlessBrowser(h, APP);
      const response = await b.post('/start', startBody(client.clientId, pkcePair().challenge));
      expect(resultOf(response).type).toBe('view');
      expect(response.headers['access-control-allow-origin']).toBe(APP);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      // So that a custom UI can read how long a refused attempt must wait.
      expect(response.headers['access-control-expose-headers']).toBe('Retry-After');
      expect(response.headers.vary).toContain('Origin');
      expect(setCookies(response).find((c) => c.name === 'svc_af')?.attributes).toMatchObject({
        samesite: 'None',
        secure: '',
        httponly: '',
      });

      const preflight = await b.options('/password/login', {
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers).toMatchObject({
        'access-control-allow-origin': APP,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'content-type',
      });
    });

    it('another origin gets no CORS headers, and its posts are refused before any processing', async () => {
      const b = new HeadlessBrowser(h, 'https://evil.example.net');
      const preflight = await b.options('/start', { 'access-control-request-method': 'POST' });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();

      const post = await b.post('/start', startBody(client.clientId, pkcePair().challenge));
      expect(post.statusCode).toBe(403);
      expect(post.json()).toEqual({
        error: 'origin_not_allowed',
        message: 'Requests from this origin are not allowed.',
      });
      expect(post.headers['access-control-allow-origin']).toBeUndefined();
      expect(setCookies(post)).toEqual([]);

      // The public origin itself (a same-origin page) may post.
      const same = new HeadlessBrowser(h, 'https://id.example.com');
      const own = await same.post('/start', startBody(client.clientId, pkcePair().challenge));
      expect(resultOf(own).type).toBe('view');
      expect(own.headers['access-control-allow-origin']).toBeUndefined();
    });
  });
});
