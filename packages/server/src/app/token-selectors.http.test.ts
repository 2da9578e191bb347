import { svcLoginResultSchema, type SvcCreatedClient } from '@svc/contract';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { HeadlessBrowser } from '../test-support/headless-browser.js';
import { createHostedTestApp, HOSTED_PASSWORD, type HostedTestApp } from '../test-support/hosted-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { basicAuth, form } from '../test-support/oauth-http.js';

/**
 * A control character in a token that a route looks up (refresh, pending, MFA, challenge, magic-link,
 * reset, verification, invitation and consent tokens, authorization and device codes) is a 400 on every
 * surface and on both databases — PostgreSQL refuses NUL in text, which must never become a 500 — and
 * direct POST /logout answers 204 for it as for any token it cannot use. /authorize, once the redirect
 * URI is known, answers its 400 as RFC 6749 §4.1.2.1 says: a redirect with `error=invalid_request`.
 */

const CONTROLS = ['\u0000', '\u0001', '\u0008', '\n', '\u001b', '\u007f', '\u0085'];
/** A token of the shape Svc issues (`<row id>.<secret>`) with `control` inside its row id. */
const tokenWith = (control: string) => `rft_0190aa${control}bb.c2VjcmV0LXZhbHVl`;

interface TokenRoute {
  readonly name: string;
  /** The request carrying `token` wherever the route takes one. */
  request(token: string): InjectOptions | Promise<LightMyRequestResponse>;
  /** 204 for POST /logout; `redirect` for the client's invalid_request redirect. */
  readonly answer?: 204 | 'redirect';
}

const json = (path: string, body: object): InjectOptions => ({
  method: 'POST',
  url: `/svc/auth${path}`,
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify(body),
});
const tokenEndpoint = (params: Record<string, string>, authorization?: string): InjectOptions => ({
  method: 'POST',
  url: '/svc/auth/token',
  headers: {
    'content-type': 'application/x-www-form-urlencoded',
    ...(authorization === undefined ? {} : { authorization }),
  },
  payload: form(params),
});
const page = (path: string, query: Record<string, string>): InjectOptions => ({
  method: 'GET',
  url: `/svc/auth${path}?${new URLSearchParams(query).toString()}`,
});

describeAboveStorage('token selectors with control characters', (kind) => {
  let h: HostedTestApp;
  let web: SvcCreatedClient;
  let backend: SvcCreatedClient;
  let device: SvcCreatedClient;
  let requestId: string;
  let headless: HeadlessBrowser;
  let browser: InjectBrowser;

  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    web = await h.given.client();
    backend = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    device = await h.given.client({ allowDeviceAuthorization: true });
    headless = new HeadlessBrowser(h);
    const started = await headless.post('/start', {
      responseType: 'code',
      clientId: web.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
    });
    requestId = started.json<{ viewModel: { requestId: string } }>().viewModel.requestId;
    // A hosted page that hands out the antiforgery field and cookie the form posts need.
    browser = new InjectBrowser(h);
    await browser.get(`${h.authBase}/password/forgot`);
  });
  afterAll(() => h.close());

  const ROUTES: readonly TokenRoute[] = [
    { name: 'direct /token/refresh', request: (t) => json('/token/refresh', { refreshToken: t }) },
    { name: 'direct /logout', request: (t) => json('/logout', { refreshToken: t }), answer: 204 },
    { name: 'direct /logout-all', request: (t) => json('/logout-all', { refreshToken: t }) },
    { name: 'direct /account/grants', request: (t) => json('/account/grants', { refreshToken: t }) },
    {
      name: 'direct /account/grants/revoke',
      request: (t) => json('/account/grants/revoke', { refreshToken: t, grantId: 'cgr_1' }),
    },
    {
      name: 'direct /select-organization',
      request: (t) => json('/select-organization', { pendingAuthToken: t, organizationId: 'org_1' }),
    },
    {
      name: 'direct /email-otp/verify',
      request: (t) => json('/email-otp/verify', { challengeToken: t, code: '123456' }),
    },
    {
      name: 'direct /magic-link/complete',
      request: (t) => json('/magic-link/complete', { token: t, clientId: web.clientId }),
    },
    {
      name: 'direct /mfa/challenge/verify',
      request: (t) => json('/mfa/challenge/verify', { mfaToken: t, code: '123456' }),
    },
    {
      name: 'direct /mfa/challenge/totp/enroll/start',
      request: (t) => json('/mfa/challenge/totp/enroll/start', { mfaToken: t }),
    },
    {
      name: 'direct /mfa/challenge/totp/enroll/verify (MFA token)',
      request: (t) =>
        json('/mfa/challenge/totp/enroll/verify', {
          mfaToken: t,
          enrollmentToken: 'x'.repeat(43),
          code: '1',
        }),
    },
    {
      name: 'direct /mfa/challenge/totp/enroll/verify (enrollment token)',
      request: (t) =>
        json('/mfa/challenge/totp/enroll/verify', {
          mfaToken: 'x'.repeat(43),
          enrollmentToken: t,
          code: '1',
        }),
    },
    {
      name: 'direct /password/reset',
      request: (t) => json('/password/reset', { token: t, newPassword: 'long enough password' }),
    },
    { name: 'direct /email/verify', request: (t) => json('/email/verify', { token: t }) },
    { name: 'GET /email/verify', request: (t) => page('/email/verify', { token: t }) },
    {
      name: '/token refresh_token (public client)',
      request: (t) =>
        tokenEndpoint({ grant_type: 'refresh_token', client_id: web.clientId, refresh_token: t }),
    },
    {
      name: '/token refresh_token (no client)',
      request: (t) => tokenEndpoint({ grant_type: 'refresh_token', refresh_token: t }),
    },
    {
      name: '/token refresh_token (confidential client)',
      request: (t) =>
        tokenEndpoint(
          { grant_type: 'refresh_token', refresh_token: t },
          basicAuth(backend.clientId, backend.clientSecret ?? ''),
        ),
    },
    {
      name: '/token authorization_code',
      request: (t) =>
        tokenEndpoint({
          grant_type: 'authorization_code',
          client_id: web.clientId,
          code: t,
          redirect_uri: CLIENT_REDIRECT_URI,
          code_verifier: pkcePair().verifier,
        }),
    },
    {
      name: '/token device_code',
      request: (t) =>
        tokenEndpoint({
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
          client_id: device.clientId,
          device_code: t,
        }),
    },
    { name: 'GET /magic-link', request: (t) => page('/magic-link', { token: t }) },
    { name: 'GET /password/reset', request: (t) => page('/password/reset', { token: t }) },
    { name: 'GET /invitations/accept', request: (t) => page('/invitations/accept', { token: t }) },
    {
      name: 'GET /authorize invitation_token',
      request: (t) => page('/authorize', authorizeQuery(web.clientId, { invitation_token: t })),
      answer: 'redirect',
    },
    { name: 'hosted POST /magic-link', request: (t) => browser.post('/magic-link', { token: t }) },
    {
      name: 'hosted POST /password/reset/submit',
      request: (t) =>
        browser.post('/password/reset/submit', {
          token: t,
          new_password: 'long enough password',
          confirm_password: 'long enough password',
        }),
    },
    {
      name: 'headless /start invitationToken',
      request: (t) =>
        headless.post('/start', {
          responseType: 'code',
          clientId: web.clientId,
          redirectUri: CLIENT_REDIRECT_URI,
          codeChallenge: pkcePair().challenge,
          codeChallengeMethod: 'S256',
          invitationToken: t,
        }),
    },
    ...(
      [
        ['password/reset', { token: '@', newPassword: 'long enough password' }],
        ['magic-link/complete', { token: '@' }],
        ['invitations/resolve', { invitationToken: '@' }],
        ['invitations/accept', { invitationToken: '@' }],
        ['organization/select', { organizationId: 'org_1', pendingToken: '@' }],
        ['consent/approve', { consentToken: '@' }],
        ['consent/deny', { consentToken: '@' }],
      ] as const
    ).map(([action, fields]): TokenRoute => ({
      name: `headless /${action}`,
      request: (t) =>
        headless.post(
          `/${action}`,
          Object.fromEntries(
            Object.entries({ requestId, ...fields }).map(([key, value]) => [key, value === '@' ? t : value]),
          ),
        ),
    })),
  ];

  const send = async (route: TokenRoute, token: string) => {
    const request = route.request(token);
    return 'then' in request ? request : h.inject(request);
  };

  it.each(ROUTES.map((route) => [route.name, route] as const))('%s', async (_name, route) => {
    for (const control of CONTROLS) {
      const response = await send(route, tokenWith(control));
      const what = `${JSON.stringify(control)}: ${response.body.slice(0, 300)}`;
      if (route.answer !== 'redirect') {
        expect(response.statusCode, what).toBe(route.answer ?? 400);
        continue;
      }
      expect(response.statusCode, what).toBe(302);
      const location = new URL(String(response.headers.location));
      expect(`${location.origin}${location.pathname}`).toBe(CLIENT_REDIRECT_URI);
      expect(location.searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('direct /logout with a control character after a live token ends nothing', async () => {
    const user = await h.given.user();
    const login = await h.inject(
      json('/password/login', { email: user.email, password: HOSTED_PASSWORD, clientId: web.clientId }),
    );
    const tokens = svcLoginResultSchema.parse(login.json()).tokens;
    if (tokens === null) throw new Error('expected tokens');
    for (const control of CONTROLS) {
      const response = await h.inject(json('/logout', { refreshToken: `${tokens.refreshToken}${control}` }));
      expect(response.statusCode, JSON.stringify(control)).toBe(204);
    }
    const refreshed = await h.inject(json('/token/refresh', { refreshToken: tokens.refreshToken }));
    expect(refreshed.statusCode, refreshed.body).toBe(200);
  });
});
