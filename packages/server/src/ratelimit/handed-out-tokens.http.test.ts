import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { DEVICE_CODE_GRANT_TYPE } from '../oauth/device/device-code-grant.js';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { HeadlessBrowser, headlessStartBody } from '../test-support/headless-browser.js';
import { createHostedTestApp, HOSTED_PASSWORD, type HostedTestApp } from '../test-support/hosted-test-app.js';
import { organizationMfaPolicy } from '../test-support/mfa.js';
import type { SvcCreatedClient } from '@svc/contract';

/** A low limit keeps the test short; the default (30 in 15 minutes) is the same rule. */
const THRESHOLD = 3;
const NEW_PASSWORD = 'a new password, long enough';
const REFUSAL = 'Too many links or codes that are not valid were tried from this address';

/**
 * Links, codes and states Svc handed out are 256 random bits, so no guess finds one; but every check of
 * one costs a query. Refused ones are counted per client address, every kind and surface together
 * (`failureLimits.tokenIp`): past the limit the address gets 429 with Retry-After until the window ends,
 * its right links too, while other addresses go on.
 */
describeAboveStorage('refused handed-out tokens, per client address', (kind) => {
  let h: HostedTestApp;
  let app: SvcCreatedClient;
  let backend: SvcCreatedClient;
  let device: SvcCreatedClient;
  let address = 0;
  const nextAddress = () => `203.0.113.${(address += 1)}`;
  let guesses = 0;
  const guess = () => `unknown-token-${(guesses += 1)}-${'x'.repeat(32)}`;

  beforeAll(async () => {
    h = await createHostedTestApp(kind, { failureLimits: { tokenIp: { threshold: THRESHOLD } } });
    app = await h.given.client();
    backend = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_post' });
    device = await h.given.client({ allowDeviceAuthorization: true });
  });
  afterAll(async () => {
    await h.close();
  });

  const get = (path: string, remoteAddress: string) =>
    h.inject({ method: 'GET', url: path, remoteAddress, headers: { accept: 'text/html' } });
  const post = (path: string, payload: Record<string, unknown>, remoteAddress: string) =>
    h.inject({ method: 'POST', url: `${h.authBase}${path}`, payload, remoteAddress });

  /** One request presenting an unknown token from `remoteAddress`, on each surface that takes one. */
  const surfaces: readonly [string, (remoteAddress: string) => Promise<LightMyRequestResponse>][] = [
    [
      'direct password reset',
      (a) => post('/password/reset', { token: guess(), newPassword: NEW_PASSWORD }, a),
    ],
    ['direct email verification', (a) => post('/email/verify', { token: guess() }, a)],
    ['direct magic link', (a) => post('/magic-link/complete', { token: guess(), clientId: app.clientId }, a)],
    ['direct MFA token', (a) => post('/mfa/challenge/verify', { mfaToken: guess(), code: '123456' }, a)],
    [
      'direct organization selection',
      (a) => post('/select-organization', { pendingAuthToken: guess(), organizationId: 'org_1' }, a),
    ],
    ['direct email code', (a) => post('/email-otp/verify', { challengeToken: guess(), code: '123456' }, a)],
    ['hosted password reset page', (a) => get(`${h.authBase}/password/reset?token=${guess()}`, a)],
    ['hosted invitation page', (a) => get(`${h.authBase}/invitations/accept?token=${guess()}`, a)],
    [
      '/authorize with an invitation',
      (a) => {
        const query = authorizeQuery(app.clientId, { invitation_token: guess() });
        return get(`${h.authBase}/authorize?${new URLSearchParams(query).toString()}`, a);
      },
    ],
    ['provider callback', (a) => get(`${h.authBase}/oidc/callback?state=${guess()}&code=c`, a)],
    ['calendar callback', (a) => get(`${h.authBase}/calendar/callback?state=${guess()}&code=c`, a)],
    ['SAML continuation', (a) => get(`${h.authBase}/saml/continue?handle=${guess()}`, a)],
  ];

  it.each(surfaces)('%s: refused once the address is past the limit', async (_surface, attempt) => {
    const attacker = nextAddress();
    for (let i = 0; i < THRESHOLD; i += 1) expect((await attempt(attacker)).statusCode).toBe(400);
    const refused = await attempt(attacker);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain(REFUSAL);
    // Another address is not held back.
    expect((await attempt(nextAddress())).statusCode).toBe(400);
  });

  it('counts every kind together, holds back a right link until the window ends, and leaves it usable', async () => {
    const user = await h.given.user();
    const reset = async () =>
      (await h.t.svc.auth.createPasswordResetTokenAsync({ email: user.email }))?.token;
    const attacker = nextAddress();
    for (const [, attempt] of surfaces.slice(0, THRESHOLD)) {
      expect((await attempt(attacker)).statusCode).toBe(400);
    }
    const token = await reset();
    const held = await post('/password/reset', { token, newPassword: NEW_PASSWORD }, attacker);
    expect(held.statusCode).toBe(429);
    expect(held.json()).toMatchObject({ error: 'too_many_attempts' });
    const audited = await h.auditEvents('auth.token.throttled');
    expect(audited.filter((event) => event.ipAddress === attacker)).toHaveLength(1);
    // The refused request used nothing: the link still sets the password from elsewhere.
    expect(
      (await post('/password/reset', { token, newPassword: NEW_PASSWORD }, nextAddress())).statusCode,
    ).toBe(204);
    h.t.clock.advance(15 * MINUTE_MS);
    const later = await post(
      '/password/reset',
      { token: await reset(), newPassword: NEW_PASSWORD },
      attacker,
    );
    expect(later.statusCode).toBe(204);
  });

  it("does not count a confidential client's backend, which relays its users' links", async () => {
    const relay = nextAddress();
    const body = () => ({ token: guess(), clientId: backend.clientId, clientSecret: backend.clientSecret });
    const basic = `Basic ${Buffer.from(`${backend.clientId}:${backend.clientSecret ?? ''}`).toString('base64')}`;
    for (let i = 0; i < THRESHOLD + 2; i += 1) {
      expect((await post('/magic-link/complete', body(), relay)).statusCode).toBe(400);
      // A challenge token names no client: the secret alone, or Basic credentials, say whose backend calls.
      const mfa = { mfaToken: guess(), code: '123456', clientSecret: backend.clientSecret };
      expect((await post('/mfa/challenge/verify', mfa, relay)).statusCode).toBe(400);
      const viaBasic = await h.inject({
        method: 'POST',
        url: `${h.authBase}/mfa/challenge/verify`,
        payload: { mfaToken: guess(), code: '123456' },
        headers: { authorization: basic },
        remoteAddress: relay,
      });
      expect(viaBasic.statusCode).toBe(400);
    }
  });

  it('counts TOTP enrollment tokens that find nothing, beside a right MFA token', async () => {
    const user = await h.given.user();
    const organization = await h.given.organization(undefined, user.id);
    await h.t.svc.admin.updateOrganizationMfaPolicyAsync(
      organization.id,
      organizationMfaPolicy({ requireMfaForAllUsers: true }),
    );
    const login = await post(
      '/password/login',
      { email: user.email, password: HOSTED_PASSWORD, clientId: app.clientId },
      nextAddress(),
    );
    const { mfaToken } = login.json<{ mfaToken: string; requiresMfaEnrollment: boolean }>();
    expect(login.json()).toMatchObject({ requiresMfaEnrollment: true });
    const attacker = nextAddress();
    const attempt = () =>
      post(
        '/mfa/challenge/totp/enroll/verify',
        { enrollmentToken: guess(), code: '123456', mfaToken },
        attacker,
      );
    for (let i = 0; i < THRESHOLD; i += 1) expect((await attempt()).statusCode).toBe(400);
    const refused = await attempt();
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain(REFUSAL);
  });

  it('counts a guesser who sends a made-up client secret with challenge tokens', async () => {
    const attacker = nextAddress();
    const attempt = () =>
      post('/mfa/challenge/verify', { mfaToken: guess(), code: '1', clientSecret: 'x'.repeat(43) }, attacker);
    for (let i = 0; i < THRESHOLD; i += 1) expect((await attempt()).statusCode).toBe(400);
    expect((await attempt()).statusCode).toBe(429);
  });

  const token = (form: Record<string, string>, remoteAddress: string) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
      remoteAddress,
    });
  const codeForm = (clientId: string) => ({
    grant_type: 'authorization_code',
    code: guess(),
    client_id: clientId,
    redirect_uri: CLIENT_REDIRECT_URI,
    code_verifier: pkcePair().verifier,
  });

  /**
   * The token endpoint's path must cost a right value nothing, so an unknown value writes its count and
   * each node remembers the lock it met: the address is refused from the request after the one that
   * locked it.
   */
  const grants: readonly [string, (remoteAddress: string) => Promise<LightMyRequestResponse>][] = [
    ['/token authorization code', (a) => token(codeForm(app.clientId), a)],
    ['/token refresh token', (a) => token({ grant_type: 'refresh_token', refresh_token: guess() }, a)],
    [
      '/token device code',
      (a) =>
        token({ grant_type: DEVICE_CODE_GRANT_TYPE, device_code: guess(), client_id: device.clientId }, a),
    ],
    ['direct refresh', (a) => post('/token/refresh', { refreshToken: guess() }, a)],
  ];

  it.each(grants)(
    '%s: unknown values of a public client are counted per address',
    async (_grant, attempt) => {
      const attacker = nextAddress();
      for (let i = 0; i <= THRESHOLD; i += 1) {
        const refused = await attempt(attacker);
        expect(refused.statusCode).toBe(400);
        expect(refused.json()).toMatchObject({ error: 'invalid_grant' });
      }
      const limited = await attempt(attacker);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error: 'invalid_grant' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await attempt(nextAddress())).statusCode).toBe(400);
    },
  );

  it('counts links and the token endpoint together, but not a confidential client at /token', async () => {
    const attacker = nextAddress();
    for (const [, attempt] of surfaces.slice(0, THRESHOLD)) {
      expect((await attempt(attacker)).statusCode).toBe(400);
    }
    const confidential = () =>
      token({ ...codeForm(backend.clientId), client_secret: backend.clientSecret ?? '' }, attacker);
    expect((await confidential()).statusCode).toBe(400);
    expect((await token(codeForm(app.clientId), attacker)).statusCode).toBe(400);
    expect((await token(codeForm(app.clientId), attacker)).statusCode).toBe(429);
    expect((await confidential()).statusCode).toBe(400);
  });

  it('limits the headless API alike (429 with Retry-After)', async () => {
    const browser = new HeadlessBrowser(h);
    const started = await browser.post('/start', headlessStartBody(app.clientId));
    const requestId = started.json<{ viewModel: { requestId: string } }>().viewModel.requestId;
    const resetWith = (token: string) =>
      browser.post('/password/reset', { requestId, token, newPassword: NEW_PASSWORD });
    for (let i = 0; i < THRESHOLD; i += 1) {
      const refused = await resetWith(guess());
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ error: 'invalid_token' });
    }
    const limited = await resetWith(guess());
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
