import { svcLoginResultSchema, type SvcCreatedClient, type SvcLoginResult } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MINUTE_MS } from '../../../kernel/clock.js';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../../../test-support/authorize-params.js';
import { authenticatorCode, TOTP_STEP_MS, wrongCode } from '../../../test-support/authenticator-app.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { HeadlessBrowser } from '../../../test-support/headless-browser.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../../test-support/inject-browser.js';
import {
  organizationMfaPolicy,
  rejectionOf,
  selfEnroll,
  type EnrolledAuthenticator,
} from '../../../test-support/mfa.js';

const LOCK_SECONDS = '900';
const REFUSED = 'Too many wrong codes were entered. Try again in 15 minutes.';
const HOSTED_REFUSED = 'Too many wrong codes were entered. Try again in 15 minutes.';

describeAboveStorage('MFA checks counted per user across challenges', (kind) => {
  let h: HostedTestApp;
  let client: SvcCreatedClient;

  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    client = await h.given.client();
  });
  afterAll(async () => {
    await h.close();
  });

  const now = () => h.t.clock.now();
  const direct = (path: string, body: object) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}${path}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  /** A direct password sign-in that stops at the second factor: its MFA token. */
  async function signIn(email: string, organizationId?: string): Promise<SvcLoginResult> {
    const response = await direct('/password/login', {
      email,
      password: HOSTED_PASSWORD,
      clientId: client.clientId,
      ...(organizationId === undefined ? {} : { organizationId }),
    });
    expect(response.statusCode, response.body).toBe(200);
    const result = svcLoginResultSchema.parse(response.json());
    expect(result.requiresMfa).toBe(true);
    return result;
  }
  const mfaTokenOf = async (email: string) => (await signIn(email)).mfaToken ?? '';
  const verify = (mfaToken: string, code: string) => direct('/mfa/challenge/verify', { mfaToken, code });
  /** A user with a confirmed authenticator, one TOTP step after enrolling. */
  async function enrolledUser(): Promise<{ email: string; id: string; app: EnrolledAuthenticator }> {
    const user = await h.given.user();
    const app = await selfEnroll(h.t.svc.auth, h.t.clock, user.id);
    h.t.clock.advance(TOTP_STEP_MS);
    return { email: user.email, id: user.id, app };
  }
  function expectRefused(response: LightMyRequestResponse, seconds = LOCK_SECONDS): void {
    expect(response.statusCode, response.body).toBe(429);
    expect(response.headers['retry-after']).toBe(seconds);
    expect(response.json()).toEqual({
      error: 'too_many_attempts',
      message: seconds === LOCK_SECONDS ? REFUSED : expect.stringContaining('Too many wrong codes'),
    });
  }
  const throttledEvents = async (userId: string) =>
    (await h.auditEvents('auth.mfa.throttled')).filter((event) => event.userId === userId);
  const dataOf = (event: { dataJson: string }) => JSON.parse(event.dataJson) as Record<string, unknown>;
  /** The routes of a user's throttled events, sorted (they share one time on the fake clock). */
  const throttledRoutes = async (userId: string) =>
    (await throttledEvents(userId)).map((event) => String(dataOf(event).route)).sort();

  it('five wrong codes over three sign-ins lock the user: the right code answers 429 until 15 minutes have passed', async () => {
    const user = await enrolledUser();
    for (const wrongCount of [2, 2, 1]) {
      const mfaToken = await mfaTokenOf(user.email);
      for (let i = 0; i < wrongCount; i += 1) {
        const wrong = await verify(mfaToken, wrongCode(user.app.secret, now()));
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json()).toMatchObject({ error: 'invalid_code' });
      }
    }
    const fourth = await mfaTokenOf(user.email);
    const code = user.app.code();
    expectRefused(await verify(fourth, code));
    expect(await rejectionOf(h.t.svc.auth.verifyMfaChallengeAsync({ mfaToken: fourth, code }))).toMatchObject(
      {
        code: 'too_many_attempts',
        status: 429,
      },
    );
    expect(await throttledRoutes(user.id)).toEqual([
      `${h.authBase}/mfa/challenge/verify`,
      'verifyMfaChallengeAsync',
    ]);
    const events = await throttledEvents(user.id);
    expect(events.map((event) => dataOf(event).flow)).toEqual(['direct', 'direct']);
    expect(events.map((event) => JSON.stringify(event))).not.toContainEqual(expect.stringContaining(code));

    // A second before the lock ends, still refused; then the right code of a new sign-in works.
    h.t.clock.advance(15 * MINUTE_MS - 1000);
    expectRefused(await verify(await mfaTokenOf(user.email), user.app.code()), '1');
    h.t.clock.advance(1000);
    const verified = await verify(await mfaTokenOf(user.email), user.app.code());
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toMatchObject({ method: 'totp' });
  });

  it('recovery codes count with app codes, and a locked user’s right recovery code is refused and stays unused', async () => {
    const user = await enrolledUser();
    const stranger = await enrolledUser();
    // Well-formed codes that are not this user's: another user's recovery codes.
    const wrongRecovery = stranger.app.result.recoveryCodes;
    const first = await mfaTokenOf(user.email);
    for (const code of [wrongCode(user.app.secret, now()), wrongRecovery[0] ?? '']) {
      expect((await verify(first, code)).statusCode).toBe(400);
    }
    const second = await mfaTokenOf(user.email);
    for (const code of wrongRecovery.slice(1, 4)) expect((await verify(second, code)).statusCode).toBe(400);
    const recoveryCode = user.app.result.recoveryCodes[0] ?? '';
    expectRefused(await verify(await mfaTokenOf(user.email), recoveryCode));
    expect(await h.t.svc.auth.getMfaStatusAsync(user.id)).toMatchObject({ recoveryCodesRemaining: 10 });
    // The other user was not locked by guesses of their codes.
    const theirs = await verify(await mfaTokenOf(stranger.email), stranger.app.code());
    expect(theirs.statusCode, theirs.body).toBe(200);
  });

  it('hosted, headless and direct all refuse a locked user: the MFA page and the mfa view again with 429', async () => {
    const user = await enrolledUser();
    const browser = new InjectBrowser(h);
    const page = await browser.signIn(
      await browser.authorize(authorizeQuery(client.clientId, {}, pkcePair().challenge)),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(page.body).toContain('Two-step verification');
    for (let i = 0; i < 5; i += 1) {
      const wrong = await browser.post('/mfa/verify', { code: wrongCode(user.app.secret, now()) });
      expect(wrong.statusCode).toBe(400);
    }
    const hosted = await browser.post('/mfa/verify', { code: user.app.code() });
    expect(hosted.statusCode).toBe(429);
    expect(hosted.headers['retry-after']).toBe(LOCK_SECONDS);
    expect(hosted.body).toContain('<h1 id="page-title">Two-step verification</h1>');
    expect(hosted.body).toContain(HOSTED_REFUSED);
    expect(hosted.body).toContain(`action="${h.authBase}/mfa/verify"`);

    const app = new HeadlessBrowser(h);
    const started = await app.post('/start', {
      responseType: 'code',
      clientId: client.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
      scope: 'openid',
    });
    const requestId = String(started.json<{ viewModel: { requestId: string } }>().viewModel.requestId);
    await app.post('/identify', { requestId, email: user.email });
    await app.post('/password/login', { requestId, password: HOSTED_PASSWORD });
    const headless = await app.post('/mfa/verify', { requestId, code: user.app.code() });
    expect(headless.statusCode).toBe(429);
    expect(headless.headers['retry-after']).toBe(LOCK_SECONDS);
    expect(headless.json()).toMatchObject({
      type: 'view',
      viewModel: { view: 'mfa', requestId },
      error: 'too_many_attempts',
      message: HOSTED_REFUSED,
      retryAfterSeconds: 900,
    });

    expectRefused(await verify(await mfaTokenOf(user.email), user.app.code()));
    expect(await throttledRoutes(user.id)).toEqual([
      `${h.authBase}/mfa/challenge/verify`,
      'hosted /mfa/verify',
      'hosted /mfa/verify',
    ]);
  });

  it('enrollment codes count too: a locked user cannot confirm a new authenticator, hosted or direct', async () => {
    const user = await h.given.user();
    const organization = await h.given.organization(undefined, user.id);
    await h.t.svc.admin.updateOrganizationMfaPolicyAsync(
      organization.id,
      organizationMfaPolicy({ requireMfaForAllUsers: true }),
    );
    const login = await signIn(user.email, organization.id);
    expect(login.requiresMfaEnrollment).toBe(true);
    const mfaToken = login.mfaToken ?? '';
    const enrollStart = await direct('/mfa/challenge/totp/enroll/start', { mfaToken });
    const { secret, enrollmentToken } = enrollStart.json<{ secret: string; enrollmentToken: string }>();
    const enroll = (code: string) =>
      direct('/mfa/challenge/totp/enroll/verify', { enrollmentToken, code, mfaToken });
    for (let i = 0; i < 5; i += 1) expect((await enroll(wrongCode(secret, now()))).statusCode).toBe(400);
    expectRefused(await enroll(authenticatorCode(secret, now())));

    const browser = new InjectBrowser(h);
    const page = await browser.signIn(
      await browser.authorize(authorizeQuery(client.clientId, {}, pkcePair().challenge)),
      user.email,
      HOSTED_PASSWORD,
    );
    const hostedSecret = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(page.body)?.[1] ?? '';
    const hosted = await browser.post('/mfa/totp/enroll/verify', {
      code: authenticatorCode(hostedSecret, now()),
    });
    expect(hosted.statusCode).toBe(429);
    expect(hosted.body).toContain('<h1 id="page-title">Set up two-step verification</h1>');
    expect(hosted.body).toContain(HOSTED_REFUSED);
    expect(await h.t.svc.auth.getMfaStatusAsync(user.id)).toMatchObject({ totpEnrolled: false });
    expect(await throttledRoutes(user.id)).toEqual([
      `${h.authBase}/mfa/challenge/totp/enroll/verify`,
      'hosted /mfa/totp/enroll/verify',
    ]);
  });
});
