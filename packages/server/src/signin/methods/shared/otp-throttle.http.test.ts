import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../../../kernel/clock.js';
import { phoneOtpRepository } from '../../../storage/repositories/phone-otp.js';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { FakeSmsProvider } from '../../../test-support/fake-sms-provider.js';
import { HeadlessBrowser } from '../../../test-support/headless-browser.js';
import {
  createHostedTestApp,
  uniqueName,
  type HostedTestApp,
} from '../../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../../test-support/inject-browser.js';
import { rejectionOf } from '../../../test-support/mfa.js';
import { codeIn, readOutbox } from '../../../test-support/outbox.js';

const REFUSED = 'Too many wrong codes were entered.';
const HOSTED_REFUSED = 'Too many wrong codes were entered. Try again in';
/** Ten failures are allowed per address; the batches spread them over three challenges. */
const BATCHES = [4, 4, 2];

/** Distinct valid US numbers (201-555-06xx), so tests never share a number. */
let line = 600;
const nextNumber = () => `+12015550${(line += 1)}`;

describeAboveStorage('one-time codes counted per address across challenges', (kind) => {
  let h: HostedTestApp;
  let fake: FakeSmsProvider;
  let client: SvcCreatedClient;

  beforeAll(async () => {
    // The provider's verifications expire on the service's fake clock too.
    fake = await FakeSmsProvider.start({ clock: { now: () => h.t.clock.now() } });
    h = await createHostedTestApp(kind, { sms: fake.config() });
    client = await h.given.client();
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  // Past every send window, so that tests do not throttle each other's sends.
  beforeEach(() => {
    h.t.clock.advance(16 * MINUTE_MS);
  });

  const direct = (path: string, body: object) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}${path}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const startEmail = async (email: string) => {
    const response = await direct('/email-otp/start', { email, clientId: client.clientId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ challengeToken: string }>().challengeToken;
  };
  const verifyEmail = (challengeToken: string, code: string) =>
    direct('/email-otp/verify', { challengeToken, code });
  const lastEmailCode = async (to: string) =>
    codeIn((await readOutbox(h.t.svc.email, { to, templateKey: 'auth.email-otp' }))[0]?.textBody ?? null);
  /** A six-digit code that is not `code`. */
  const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');
  const retryAfter = (response: LightMyRequestResponse) => Number(response.headers['retry-after']);
  const throttled = async (channel: string) =>
    (await h.auditEvents('auth.otp.throttled')).filter((event) => event.dataJson.includes(`"${channel}"`));

  it('email: ten wrong codes over three challenges lock a known and an unknown address alike until the hour ends', async () => {
    const known = (await h.given.user()).email;
    const unknown = `${uniqueName('nobody')}@example.com`;
    const firstFailure = h.t.clock.now();
    for (const [batch, count] of BATCHES.entries()) {
      if (batch > 0) h.t.clock.advance(MINUTE_MS);
      const tokens = [await startEmail(known), await startEmail(unknown)];
      const wrong = otherThan(await lastEmailCode(known));
      for (let i = 0; i < count; i += 1) {
        const answers = [
          await verifyEmail(tokens[0] ?? '', wrong),
          await verifyEmail(tokens[1] ?? '', wrong),
        ];
        expect(answers.map((answer) => answer.statusCode)).toEqual([400, 400]);
        expect(answers[1]?.body).toBe(answers[0]?.body);
      }
    }
    h.t.clock.advance(MINUTE_MS);
    const lastTokens = [await startEmail(known), await startEmail(unknown)];
    const right = await lastEmailCode(known);
    const refused = [
      await verifyEmail(lastTokens[0] ?? '', right),
      await verifyEmail(lastTokens[1] ?? '', right),
    ];
    const waitMs = firstFailure + HOUR_MS - h.t.clock.now();
    for (const answer of refused) {
      expect(answer.statusCode, answer.body).toBe(429);
      expect(retryAfter(answer)).toBe(waitMs / 1000);
      expect(answer.json()).toEqual({
        error: 'too_many_attempts',
        message: `${REFUSED} Try again in ${waitMs / MINUTE_MS} minutes.`,
      });
    }
    expect(refused[1]?.body).toBe(refused[0]?.body);
    expect(
      await rejectionOf(
        h.t.svc.auth.verifyEmailOtpAsync({ challengeToken: lastTokens[0] ?? '', code: right }),
      ),
    ).toMatchObject({ code: 'too_many_attempts', status: 429 });

    // Another address is not affected.
    const other = (await h.given.user()).email;
    const otherToken = await startEmail(other);
    expect((await verifyEmail(otherToken, await lastEmailCode(other))).statusCode).toBe(200);

    const events = await throttled('email');
    expect(events).toHaveLength(3);
    for (const event of events) {
      expect(event.dataJson.toLowerCase()).not.toContain(known);
      expect(event.dataJson.toLowerCase()).not.toContain(unknown);
      expect(event.dataJson).not.toContain(right);
    }

    h.t.clock.advance(waitMs);
    const fresh = await startEmail(known);
    const signedIn = await verifyEmail(fresh, await lastEmailCode(known));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });

  it('email: signup codes share the address’s count; hosted and headless refuse with the enter-code step again (429)', async () => {
    const email = `${uniqueName('newcomer')}@example.com`;
    // Nine failed sign-in codes for an address without an account (nothing is sent; every code fails).
    for (const count of [5, 4]) {
      const token = await startEmail(email);
      for (let i = 0; i < count; i += 1) expect((await verifyEmail(token, '123456')).statusCode).toBe(400);
      h.t.clock.advance(MINUTE_MS);
    }
    const app = new HeadlessBrowser(h);
    const started = await app.post('/start', {
      responseType: 'code',
      clientId: client.clientId,
      redirectUri: CLIENT_REDIRECT_URI,
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
      scope: 'openid',
    });
    const requestId = started.json<{ viewModel: { requestId: string } }>().viewModel.requestId;
    const signup = await app.post('/signup/email-otp/start', { requestId, displayName: 'Nia', email });
    expect(signup.statusCode, signup.body).toBe(200);
    const code = await lastEmailCode(email);
    const tenth = await app.post('/signup/email-otp/verify', { requestId, code: otherThan(code) });
    expect(tenth.statusCode).toBe(400);
    const headless = await app.post('/signup/email-otp/verify', { requestId, code });
    expect(headless.statusCode, headless.body).toBe(429);
    expect(retryAfter(headless)).toBeGreaterThan(0);
    expect(headless.json()).toMatchObject({
      type: 'view',
      viewModel: { view: 'email-otp-signup-verify', requestId },
      error: 'too_many_attempts',
      message: expect.stringContaining(HOSTED_REFUSED) as unknown,
      retryAfterSeconds: retryAfter(headless),
    });

    // The hosted page of the same request, in the same browser: the enter-code step again.
    const browser = new InjectBrowser(h);
    for (const [name, value] of app.cookies) browser.cookies.set(name, value);
    await browser.get(`${h.authBase}/login?request_id=${requestId}`);
    const hosted = await browser.post('/signup/email-otp/verify', { code });
    expect(hosted.statusCode).toBe(429);
    expect(retryAfter(hosted)).toBe(retryAfter(headless));
    expect(hosted.body).toContain(HOSTED_REFUSED);
    expect(hosted.body).toContain(`action="${h.authBase}/signup/email-otp/verify"`);
    const account = await h.t.svc.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirst();
    expect(account).toBeUndefined();
    const routes = (await throttled('email')).map((event) => event.dataJson);
    expect(routes.some((data) => data.includes('headless /signup/email-otp/verify'))).toBe(true);
  });

  it('SMS: ten wrong codes over three challenges lock a number; while locked the provider is never asked', async () => {
    const known = nextNumber();
    const unknown = nextNumber();
    const user = await h.given.user();
    await phoneOtpRepository(h.t.svc.database.db).setUserPhone(user.id, known, h.t.clock.now());
    /** A browser at the enter-code step of a new hosted phone sign-in for `number`. */
    const atCodeStep = async (number: string) => {
      const b = new InjectBrowser(h);
      await b.follow(
        await b.authorize(authorizeQuery(client.clientId, { scope: 'openid' }, pkcePair().challenge)),
      );
      await b.click('Text me a sign-in code');
      await b.follow(await b.post('/login/phone-otp/start', { phone_number: number }));
      return b;
    };
    const firstFailure = h.t.clock.now();
    for (const [batch, count] of BATCHES.entries()) {
      // Past the provider's own verification (ten minutes), which counts per verification only.
      if (batch > 0) h.t.clock.advance(10 * MINUTE_MS + 1000);
      const browsers = [await atCodeStep(known), await atCodeStep(unknown)];
      const wrong = otherThan(fake.lastCode(known) ?? '');
      for (let i = 0; i < count; i += 1) {
        for (const b of browsers)
          expect((await b.post('/login/phone-otp/verify', { code: wrong })).statusCode).toBe(400);
      }
    }
    // Sends of one number keep their minimum interval, so that none is refused.
    h.t.clock.advance(MINUTE_MS);
    const browsers = [await atCodeStep(known), await atCodeStep(unknown)];
    const right = fake.lastCode(known) ?? '';
    const checksBefore = fake.requests.filter((request) =>
      request.path.endsWith('/VerificationCheck'),
    ).length;
    const waitMs = firstFailure + HOUR_MS - h.t.clock.now();
    for (const b of browsers) {
      const refused = await b.post('/login/phone-otp/verify', { code: right });
      expect(refused.statusCode).toBe(429);
      expect(retryAfter(refused)).toBe(waitMs / 1000);
      expect(refused.body).toContain(`${HOSTED_REFUSED} ${Math.ceil(waitMs / MINUTE_MS)} minutes.`);
      expect(refused.body).toContain(`action="${h.authBase}/login/phone-otp/verify"`);
    }
    // In-process, the same: refused before the provider is asked.
    h.t.clock.advance(MINUTE_MS);
    const challenge = await h.t.svc.auth.requestPhoneOtpAsync({
      phoneNumber: known,
      clientId: client.clientId,
      organizationId: null,
    });
    expect(
      await rejectionOf(
        h.t.svc.auth.verifyPhoneOtpAsync({ challengeToken: challenge.challengeToken, code: right }),
      ),
    ).toMatchObject({ code: 'too_many_attempts', status: 429 });
    expect(fake.requests.filter((request) => request.path.endsWith('/VerificationCheck'))).toHaveLength(
      checksBefore,
    );
    const events = await throttled('sms');
    expect(events).toHaveLength(3);
    for (const event of events) {
      expect(event.dataJson).not.toContain(known);
      expect(event.dataJson).not.toContain(unknown);
    }

    // Another number is not affected; after the hour, the locked one works again.
    const other = nextNumber();
    const otherUser = await h.given.user();
    await phoneOtpRepository(h.t.svc.database.db).setUserPhone(otherUser.id, other, h.t.clock.now());
    const otherBrowser = await atCodeStep(other);
    const otherDone = await otherBrowser.post('/login/phone-otp/verify', {
      code: fake.lastCode(other) ?? '',
    });
    expect(otherDone.statusCode).toBe(303);
    h.t.clock.advance(firstFailure + HOUR_MS - h.t.clock.now());
    const again = await atCodeStep(known);
    const done = await again.post('/login/phone-otp/verify', { code: fake.lastCode(known) ?? '' });
    expect(done.statusCode, done.body.slice(0, 300)).toBe(303);
  });
});
