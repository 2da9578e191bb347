import type { SvcCreatedClient } from '@svc/contract';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { HOUR_MS } from '../../../kernel/clock.js';
import { SvcSendRefusedError } from '../../../ratelimit/refused-send.js';
import { phoneOtpRepository } from '../../../storage/repositories/phone-otp.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { createDirectHarness, unique, type DirectHarness } from '../../../test-support/direct-test-app.js';
import { FakeSmsProvider } from '../../../test-support/fake-sms-provider.js';
import { codeIn, linkIn, readOutbox } from '../../../test-support/outbox.js';

const REFUSED_IN_30 =
  'It is too soon to send another message, so nothing was sent. You can ask again in 30 seconds.';

/**
 * docs/reference/errors.md "Refusals" on the direct routes and the in-process starts: a send the
 * resend delay or a window refused answers 429 `resend_too_soon` with Retry-After and nextAllowedSendAt,
 * the same for an address with and without an account, and nothing goes out; after the delay it does.
 */
describeAboveStorage('a refused send says so: direct routes and in-process starts', (kind) => {
  let d: DirectHarness;
  let fake: FakeSmsProvider;
  let client: SvcCreatedClient;

  beforeAll(async () => {
    fake = await FakeSmsProvider.start({ clock: { now: () => d.t.clock.now() } });
    d = await createDirectHarness(kind, { sms: fake.config() });
    client = await d.given.client();
  });
  afterAll(async () => {
    await d?.close();
    await fake?.close();
  });
  // Past every send window (per address and per IP), so that tests do not throttle each other.
  beforeEach(() => {
    d.t.clock.advance(HOUR_MS + 1000);
  });

  const outboxTo = (address: string) => readOutbox(d.t.svc.email, { to: address });
  const inSeconds = (seconds: number) => new Date(d.t.clock.now() + seconds * 1000).toISOString();

  it('an email code asked for right after a signup code: 429 with Retry-After and nextAllowedSendAt, alike for a known and a new address; after 30 s it is sent and signs in', async () => {
    const known = await d.given.user();
    const fresh = `${unique('fresh')}@example.com`;
    const answers: string[] = [];
    for (const email of [fresh, known.email]) {
      // The signup code goes to the new address only; both count against the address's resend delay.
      await d.t.svc.auth.requestEmailOtpSignupAsync({ displayName: 'New', email, clientId: client.clientId });
      const refused = await d.post('/email-otp/start', { email, clientId: client.clientId });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('30');
      expect(refused.headers['cache-control']).toBe('no-store');
      answers.push(refused.body);
    }
    expect(answers[1]).toBe(answers[0]);
    expect(JSON.parse(answers[0] ?? '')).toEqual({
      nextAllowedSendAt: inSeconds(30),
      error: 'resend_too_soon',
      message: REFUSED_IN_30,
    });
    expect(await outboxTo(known.email)).toEqual([]);
    expect(await outboxTo(fresh)).toHaveLength(1);
    const refusals = await d.events('auth.email_otp.not_sent', client.clientId);
    expect(refusals.filter((e) => e.data.reason === 'rate_limited')).toHaveLength(2);

    d.t.clock.advance(30_000);
    const sent = await d.post('/email-otp/start', { email: known.email, clientId: client.clientId });
    expect(sent.statusCode).toBe(200);
    const started = sent.json<{ challengeToken: string; nextAllowedSendAt: string }>();
    expect(started.nextAllowedSendAt).toBe(inSeconds(30));
    const [mail] = await outboxTo(known.email);
    const verified = await d.post('/email-otp/verify', {
      challengeToken: started.challengeToken,
      code: codeIn(mail?.textBody ?? null),
    });
    expect(verified.statusCode).toBe(200);
  });

  it('a magic link asked for twice at once: the second is 429 alike for a known and an unknown address; after 30 s the link is sent', async () => {
    const known = await d.given.user();
    const unknown = `${unique('nobody')}@example.com`;
    const emails = [known.email, unknown];
    for (const email of emails) {
      expect((await d.post('/magic-link/start', { email, clientId: client.clientId })).statusCode).toBe(200);
    }
    d.t.clock.advance(12_000);
    const answers: string[] = [];
    for (const email of emails) {
      const refused = await d.post('/magic-link/start', { email, clientId: client.clientId });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('18');
      answers.push(refused.body);
    }
    expect(answers[1]).toBe(answers[0]);
    expect(JSON.parse(answers[0] ?? '')).toMatchObject({
      error: 'resend_too_soon',
      nextAllowedSendAt: inSeconds(18),
    });
    expect(await outboxTo(known.email)).toHaveLength(1);
    expect(await outboxTo(unknown)).toEqual([]);

    d.t.clock.advance(18_000);
    expect(
      (await d.post('/magic-link/start', { email: known.email, clientId: client.clientId })).statusCode,
    ).toBe(200);
    const links = await outboxTo(known.email);
    expect(links).toHaveLength(2);
    expect(linkIn(links[0]?.textBody ?? null)).not.toBe(linkIn(links[1]?.textBody ?? null));
  });

  it('password reset and email verification emails: asked for again at once, 429 alike for a known and an unknown address; after 60 s they go out', async () => {
    for (const path of ['/password/forgot', '/email/verification-email']) {
      const known = await d.given.user();
      const unknown = `${unique('nobody')}@example.com`;
      const answers: string[] = [];
      for (const email of [known.email, unknown]) {
        expect((await d.post(path, { email, clientId: client.clientId })).statusCode).toBe(200);
        const refused = await d.post(path, { email, clientId: client.clientId });
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toBe('60');
        answers.push(refused.body);
      }
      expect(answers[1]).toBe(answers[0]);
      expect(JSON.parse(answers[0] ?? '')).toMatchObject({
        error: 'resend_too_soon',
        nextAllowedSendAt: inSeconds(60),
      });
      expect(await outboxTo(known.email)).toHaveLength(1);
      d.t.clock.advance(60_000);
      expect((await d.post(path, { email: known.email, clientId: client.clientId })).statusCode).toBe(200);
      expect(await outboxTo(known.email)).toHaveLength(2);
    }
  });

  it('phone codes in-process: a start right after a signup start throws SvcSendRefusedError alike for a known and a new number and never calls the provider; after 30 s the text goes out', async () => {
    const known = '+12015550761';
    const fresh = '+12015550762';
    const user = await d.given.user();
    await phoneOtpRepository(d.t.svc.database.db).setUserPhone(user.id, known, d.t.clock.now());
    const errors: unknown[] = [];
    for (const phoneNumber of [known, fresh]) {
      await d.t.svc.auth.requestPhoneOtpSignupAsync({
        displayName: 'New',
        phoneNumber,
        clientId: client.clientId,
      });
      const calls = fake.requests.length;
      const refused = await d.t.svc.auth
        .requestPhoneOtpAsync({ phoneNumber, clientId: client.clientId })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(SvcSendRefusedError);
      expect(fake.requests).toHaveLength(calls);
      errors.push({ ...(refused as SvcSendRefusedError) });
    }
    expect(errors[1]).toEqual(errors[0]);
    expect(errors[0]).toMatchObject({
      code: 'resend_too_soon',
      status: 429,
      retryAfterSeconds: 30,
      extra: { nextAllowedSendAt: inSeconds(30) },
    });
    expect(fake.sent.filter((sms) => sms.to === known)).toEqual([]);

    d.t.clock.advance(30_000);
    await d.t.svc.auth.requestPhoneOtpAsync({ phoneNumber: known, clientId: client.clientId });
    expect(fake.sent.filter((sms) => sms.to === known)).toHaveLength(1);
  });
});
