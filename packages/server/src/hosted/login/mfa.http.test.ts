import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MINUTE_MS } from '../../kernel/clock.js';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { authenticatorCode, TOTP_STEP_MS, wrongCode } from '../../test-support/authenticator-app.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
  type TestUser,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { organizationMfaPolicy, selfEnroll } from '../../test-support/mfa.js';
import { HOSTED_MESSAGES } from '../form.js';

const heading = (title: string) => `<h1 id="page-title">${title}</h1>`;
const ENROLL_TITLE = heading('Set up two-step verification');
const VERIFY_TITLE = heading('Two-step verification');
const CODES_TITLE = heading('Save your recovery codes');
const EXPIRED_TITLE = heading('This sign-in has expired');

describeAboveStorage('hosted MFA pages', (kind) => {
  let h: HostedTestApp;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    // The per-user limit (mfa/mfa-throttle.http.test.ts) raised, so that the challenge's own limit shows.
    h = await createHostedTestApp(kind, { failureLimits: { mfaUser: { threshold: 10 } } });
    web = await h.given.client();
  });
  afterAll(async () => {
    await h.close();
  });

  const now = () => h.t.clock.now();
  const amrOf = async (accessToken: string) =>
    (await h.t.svc.authEngine.tokens.accessTokens.validate(accessToken, { audience: null }))?.session.amr;

  /** A user in an organization of their own; `required`: its policy requires MFA of everyone. */
  async function member(required: boolean): Promise<{ user: TestUser; organizationId: string }> {
    const user = await h.given.user();
    const organization = await h.given.organization(undefined, user.id);
    if (required) await requireMfa(organization.id);
    return { user, organizationId: organization.id };
  }
  const requireMfa = (organizationId: string) =>
    h.t.svc.admin.updateOrganizationMfaPolicyAsync(
      organizationId,
      organizationMfaPolicy({ requireMfaForAllUsers: true }),
    );

  /** Signs in with the password in a new browser; the answer after following the hosted redirects. */
  async function signIn(user: TestUser, client = web, extra: Record<string, string> = {}) {
    const b = new InjectBrowser(h);
    const pkce = pkcePair();
    const response = await b.signIn(
      await b.authorize(authorizeQuery(client.clientId, extra, pkce.challenge)),
      user.email,
      HOSTED_PASSWORD,
    );
    return { b, pkce, response };
  }
  const secretOn = (page: string) =>
    /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(page)?.[1]?.replaceAll(' ', '');
  const continueHref = (page: string) =>
    new URL(
      (/<a class="button button-primary" href="([^"]+)">Continue<\/a>/.exec(page)?.[1] ?? '').replaceAll(
        '&amp;',
        '&',
      ),
    );
  const toClient = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body.slice(0, 300)).toBeGreaterThanOrEqual(300);
    const location = InjectBrowser.location(response);
    expect(location.origin + location.pathname).toBe('https://app.example.com/callback');
    return location;
  };

  it('forced enrollment: the QR code and secret, a wrong code comes back (400), the right one shows the recovery codes, then the code', async () => {
    const { user } = await member(true);
    const { b, pkce, response } = await signIn(user);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain(ENROLL_TITLE);
    expect(response.body).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+"/);
    expect(response.body).toContain(`action="${h.authBase}/mfa/totp/enroll/verify"`);
    const secret = secretOn(response.body) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // A reload shows the same authenticator being set up.
    expect(secretOn((await b.get(`${h.authBase}/login?request_id=${b.fields.request_id}`)).body)).toBe(
      secret,
    );

    const wrong = await b.post('/mfa/totp/enroll/verify', { code: wrongCode(secret, now()) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(HOSTED_MESSAGES.mfaCodeInvalid);
    expect(secretOn(wrong.body)).toBe(secret);

    const codes = await b.post('/mfa/totp/enroll/verify', { code: authenticatorCode(secret, now()) });
    expect(codes.statusCode).toBe(200);
    expect(codes.headers['cache-control']).toBe('no-store');
    expect(codes.body).toContain(CODES_TITLE);
    expect([...codes.body.matchAll(/<li><code>([0-9A-Z]{5}(-[0-9A-Z]{5}){4})<\/code><\/li>/g)]).toHaveLength(
      10,
    );
    expect(setCookies(codes).map((c) => c.name)).toContain('svc_session');
    const redirect = continueHref(codes.body);
    expect(redirect.searchParams.get('state')).toBe('state-123');
    const tokens = await h.redeem(redirect, web.clientId, pkce.verifier);
    expect(await amrOf(tokens.accessToken)).toEqual(['pwd', 'otp', 'mfa']);
    expect(await h.t.svc.auth.getMfaStatusAsync(user.id)).toMatchObject({ totpEnrolled: true });

    // The issuer session now records the second factor: the next request is answered silently.
    const silent = toClient(await b.authorize(authorizeQuery(web.clientId)));
    expect(silent.searchParams.get('code')).toBeTruthy();
  });

  it('challenge: a wrong code comes back (400), the right one goes to the client; later requests reuse the session', async () => {
    const { user } = await member(false);
    const app = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    h.t.clock.advance(TOTP_STEP_MS);
    const { b, pkce, response } = await signIn(user);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(VERIFY_TITLE);
    expect(response.body).toContain('recovery codes');
    expect(response.body).toContain(`action="${h.authBase}/mfa/verify"`);

    const wrong = await b.post('/mfa/verify', { code: wrongCode(app.secret, now()) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(HOSTED_MESSAGES.mfaCodeInvalid);
    const empty = await b.post('/mfa/verify', { code: ' ' });
    expect(empty.statusCode).toBe(400);

    const done = await b.post('/mfa/verify', { code: app.code() });
    expect(done.statusCode).toBe(303);
    expect(setCookies(done).map((c) => c.name)).toContain('svc_session');
    const tokens = await h.redeem(toClient(done), web.clientId, pkce.verifier);
    expect(await amrOf(tokens.accessToken)).toEqual(['pwd', 'otp', 'mfa']);

    h.t.clock.advance(TOTP_STEP_MS);
    expect(toClient(await b.authorize(authorizeQuery(web.clientId))).searchParams.get('code')).toBeTruthy();
    expect(
      toClient(await b.authorize(authorizeQuery(web.clientId, { prompt: 'none' }))).searchParams.get('code'),
    ).toBeTruthy();
  });

  it('a recovery code works on the hosted page too', async () => {
    const { user } = await member(false);
    const app = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    const { b } = await signIn(user);
    const done = await b.post('/mfa/verify', { code: (app.result.recoveryCodes[0] ?? '').toLowerCase() });
    expect(toClient(done).searchParams.get('code')).toBeTruthy();
    expect(await h.t.svc.auth.getMfaStatusAsync(user.id)).toMatchObject({ recoveryCodesRemaining: 9 });
  });

  it('a session from before a policy needs MFA: prompt=none answers interaction_required, otherwise the enrollment page without the password', async () => {
    const { user, organizationId } = await member(false);
    const { b, response } = await signIn(user);
    toClient(response);
    await requireMfa(organizationId);

    const silent = toClient(await b.authorize(authorizeQuery(web.clientId, { prompt: 'none' })));
    expect(silent.searchParams.get('error')).toBe('interaction_required');
    expect(silent.searchParams.get('state')).toBe('state-123');
    const page = await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(ENROLL_TITLE);
  });

  it('a third-party client: the second factor first, then consent, then the code', async () => {
    const thirdParty = await h.given.client({ isFirstParty: false });
    const { user } = await member(false);
    const app = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    h.t.clock.advance(TOTP_STEP_MS);
    const { b, pkce, response } = await signIn(user, thirdParty, { scope: 'openid profile' });
    expect(response.body).toContain(VERIFY_TITLE);
    const consent = await b.follow(await b.post('/mfa/verify', { code: app.code() }));
    expect(consent.statusCode).toBe(200);
    expect(consent.body).toContain(`action="${h.authBase}/consent/approve"`);
    const approved = toClient(await b.post('/consent/approve'));
    const tokens = await h.redeem(approved, thirdParty.clientId, pkce.verifier);
    expect(await amrOf(tokens.accessToken)).toEqual(['pwd', 'otp', 'mfa']);
  });

  it('five wrong codes end the sign-in; so does the challenge expiring (10 minutes): the start-again page', async () => {
    const { user } = await member(false);
    const app = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    h.t.clock.advance(TOTP_STEP_MS);
    const first = await signIn(user);
    for (let i = 0; i < 5; i += 1) {
      expect((await first.b.post('/mfa/verify', { code: wrongCode(app.secret, now()) })).statusCode).toBe(
        400,
      );
    }
    const exhausted = await first.b.post('/mfa/verify', { code: app.code() });
    expect(exhausted.statusCode).toBe(400);
    expect(exhausted.body).toContain(EXPIRED_TITLE);

    const second = await signIn(user);
    expect(second.response.body).toContain(VERIFY_TITLE);
    const requestId = second.b.fields.request_id ?? '';
    h.t.clock.advance(10 * MINUTE_MS);
    const stale = await second.b.get(`${h.authBase}/login?request_id=${requestId}`);
    expect(stale.statusCode).toBe(400);
    expect(stale.body).toContain(EXPIRED_TITLE);
    // "Use a different account" still starts over within the request (it lives 30 minutes).
    const identify = await second.b.get(`${h.authBase}/login?request_id=${requestId}&step=identify`);
    expect(identify.statusCode).toBe(200);
  });
});
