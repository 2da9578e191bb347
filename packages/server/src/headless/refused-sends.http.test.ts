import {
  headlessActionResultSchema,
  type SvcCreatedClient,
  type SvcHeadlessActionResult,
} from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { HOUR_MS } from '../kernel/clock.js';
import { phoneOtpRepository } from '../storage/repositories/phone-otp.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { FakeSmsProvider } from '../test-support/fake-sms-provider.js';
import { HeadlessBrowser, headlessStartBody } from '../test-support/headless-browser.js';
import {
  createMailedHostedTestApp,
  uniqueName,
  type MailedHostedTestApp,
} from '../test-support/hosted-test-app.js';
import { codeIn } from '../test-support/outbox.js';

type Answer = SvcHeadlessActionResult & { readonly error?: string; readonly message?: string };

/**
 * docs/reference/errors.md "Refusals" in the headless API: a start whose send was refused answers
 * 429 with Retry-After, `resend_too_soon`, a message that says when, and the view (the form, or the code
 * the request still waits for) with `resendAvailableAt`; the views that wait for a code or link carry
 * `resendAvailableAt` too. Known and unknown addresses and numbers answer alike.
 */
describeAboveStorage('a refused send says so: headless API', (kind) => {
  let h: MailedHostedTestApp;
  let fake: FakeSmsProvider;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    fake = await FakeSmsProvider.start({ clock: { now: () => h.t.clock.now() } });
    h = await createMailedHostedTestApp(kind, { sms: fake.config() });
    web = await h.given.client();
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
  });
  // Past every send window (per address and per IP), so that tests do not throttle each other.
  beforeEach(() => {
    h.t.clock.advance(HOUR_MS + 1000);
  });

  const inSeconds = (seconds: number) => new Date(h.t.clock.now() + seconds * 1000).toISOString();

  function answerOf(response: LightMyRequestResponse, status: number): Answer {
    expect(response.statusCode, response.body.slice(0, 400)).toBe(status);
    const body = response.json<Answer>();
    headlessActionResultSchema.parse(body);
    return body;
  }

  /** A refusal: 429, Retry-After and the contract's fields; the body with `replace`'s values blanked. */
  function refusal(
    response: LightMyRequestResponse,
    seconds: number,
    replace: string[],
    phrase = `${seconds} seconds`,
  ): string {
    const body = answerOf(response, 429);
    expect(response.headers['retry-after']).toBe(String(seconds));
    expect(body).toMatchObject({
      type: 'view',
      error: 'resend_too_soon',
      message: `It is too soon to send another message, so nothing was sent. You can ask again in ${phrase}.`,
      viewModel: { resendAvailableAt: inSeconds(seconds) },
    });
    return replace.reduce((text, value) => text.replaceAll(value, 'X'), response.body);
  }

  async function started(view?: 'email-otp' | 'phone-otp') {
    const b = new HeadlessBrowser(h);
    const first = answerOf(
      await b.post('/start', headlessStartBody(web.clientId, view === undefined ? {} : { view })),
      200,
    );
    return { b, requestId: first.viewModel?.requestId ?? '' };
  }

  it('an email code asked for right after a signup code: 429 on the email form, alike for a known and a new address; after 30 s the code is sent and the verify view says when to ask again', async () => {
    const known = await h.given.user();
    const fresh = `${uniqueName('fresh')}@example.com`;
    const bodies: string[] = [];
    for (const email of [fresh, known.email]) {
      const signup = await started();
      const sent = await signup.b.post('/signup/email-otp/start', {
        requestId: signup.requestId,
        displayName: 'New Person',
        email,
      });
      expect(answerOf(sent, 200).viewModel).toMatchObject({
        view: 'email-otp-signup-verify',
        resendAvailableAt: inSeconds(30),
      });
      const { b, requestId } = await started('email-otp');
      const refused = await b.post('/email-otp/start', { requestId, email });
      expect(answerOf(refused, 429).viewModel).toMatchObject({ view: 'email-otp', email });
      bodies.push(refusal(refused, 30, [requestId, email]));
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(h.smtp.to(known.email)).toEqual([]);

    h.t.clock.advance(30_000);
    const { b, requestId } = await started('email-otp');
    const verify = answerOf(await b.post('/email-otp/start', { requestId, email: known.email }), 200);
    expect(verify.viewModel).toMatchObject({ view: 'email-otp-verify', resendAvailableAt: inSeconds(30) });
    const [mail] = h.smtp.to(known.email);
    const done = answerOf(
      await b.post('/email-otp/verify', { requestId, code: codeIn(mail?.text ?? null) }),
      200,
    );
    expect(done.type).toBe('redirect');
  });

  it('asking again from the verify view: 429 on the same view, and the code already sent still signs in; the view keeps resendAvailableAt', async () => {
    const user = await h.given.user();
    const { b, requestId } = await started('email-otp');
    answerOf(await b.post('/email-otp/start', { requestId, email: user.email }), 200);
    h.t.clock.advance(25_000);
    const refused = await b.post('/email-otp/start', { requestId, email: user.email });
    refusal(refused, 5, []);
    expect(answerOf(refused, 429).viewModel).toMatchObject({
      view: 'email-otp-verify',
      target: 'u***@example.com',
    });
    const current = answerOf(await b.get(`/requests/${requestId}`), 200);
    expect(current.viewModel).toMatchObject({ view: 'email-otp-verify', resendAvailableAt: inSeconds(5) });
    // A wrong code's view keeps the time too.
    const wrong = answerOf(await b.post('/email-otp/verify', { requestId, code: '000000' }), 400);
    expect(wrong.viewModel).toMatchObject({ resendAvailableAt: inSeconds(5) });
    const mails = h.smtp.to(user.email);
    expect(mails).toHaveLength(1);
    const done = answerOf(
      await b.post('/email-otp/verify', { requestId, code: codeIn(mails[0]?.text ?? null) }),
      200,
    );
    expect(done.type).toBe('redirect');
  });

  it('a magic link asked for twice: 429 on the magic-link form, alike for a known and an unknown address', async () => {
    const known = await h.given.user();
    const unknown = `${uniqueName('nobody')}@example.com`;
    const bodies: string[] = [];
    for (const email of [known.email, unknown]) {
      const first = await started();
      const sent = answerOf(
        await first.b.post('/magic-link/start', { requestId: first.requestId, email }),
        200,
      );
      expect(sent.viewModel).toMatchObject({ view: 'magic-link-sent', resendAvailableAt: inSeconds(30) });
      const { b, requestId } = await started();
      const refused = await b.post('/magic-link/start', { requestId, email });
      expect(answerOf(refused, 429).viewModel).toMatchObject({ view: 'magic-link', email });
      bodies.push(refusal(refused, 30, [requestId, email]));
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(h.smtp.to(known.email)).toHaveLength(1);
  });

  it('a text code asked for again: 429 on the verify view without calling the provider, alike for a known and an unknown number; after 30 s it is texted', async () => {
    const user = await h.given.user();
    const [known, unknown] = ['+12015550781', '+12015550782'];
    await phoneOtpRepository(h.t.svc.database.db).setUserPhone(user.id, known ?? '', h.t.clock.now());
    const bodies: string[] = [];
    for (const phoneNumber of [known ?? '', unknown ?? '']) {
      const { b, requestId } = await started('phone-otp');
      const verify = answerOf(await b.post('/phone-otp/start', { requestId, phoneNumber }), 200);
      expect(verify.viewModel).toMatchObject({ view: 'phone-otp-verify', resendAvailableAt: inSeconds(30) });
      const calls = fake.requests.length;
      const refused = await b.post('/phone-otp/start', { requestId, phoneNumber });
      expect(fake.requests).toHaveLength(calls);
      expect(answerOf(refused, 429).viewModel).toMatchObject({ view: 'phone-otp-verify' });
      bodies.push(refusal(refused, 30, [requestId, phoneNumber.slice(-4)]));
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(fake.sent.filter((sms) => sms.to === known)).toHaveLength(1);
    h.t.clock.advance(30_000);
    const { b, requestId } = await started('phone-otp');
    answerOf(await b.post('/phone-otp/start', { requestId, phoneNumber: known }), 200);
    expect(fake.sent.filter((sms) => sms.to === known)).toHaveLength(2);
  });

  it('a password reset asked for again at once: 429 on the forgot-password view, alike for a known and an unknown address', async () => {
    const known = await h.given.user();
    const unknown = `${uniqueName('nobody')}@example.com`;
    const bodies: string[] = [];
    for (const email of [known.email, unknown]) {
      const { b, requestId } = await started();
      const sent = answerOf(await b.post('/password/forgot', { requestId, email }), 200);
      expect(sent.viewModel).toMatchObject({
        view: 'forgot-password-sent',
        resendAvailableAt: inSeconds(60),
      });
      const refused = await b.post('/password/forgot', { requestId, email });
      expect(answerOf(refused, 429).viewModel).toMatchObject({ view: 'forgot-password', email });
      bodies.push(refusal(refused, 60, [requestId, email], '1 minute'));
    }
    expect(bodies[1]).toBe(bodies[0]);
    expect(h.smtp.to(known.email)).toHaveLength(1);
  });
});
