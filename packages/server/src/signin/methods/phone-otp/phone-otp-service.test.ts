import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SvcInvalidOperationError,
  SvcPublicAuthError,
  SvcTooManyAttemptsError,
  SvcValidationError,
} from '../../../kernel/errors.js';
import { DEFAULT_FAILURE_RULES } from '../../../ratelimit/failure-rules.js';
import { phoneOtpRepository } from '../../../storage/repositories/phone-otp.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import type { SmsOptions } from '../../../config/options.js';
import { FakeSmsProvider } from '../../../test-support/fake-sms-provider.js';
import { createTestSvc, type TestSvc } from '../../../test-support/test-svc.js';
import { PHONE_OTP_SENT_MESSAGE } from './phone-otp-service.js';

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;
/** Distinct valid US numbers (201-555-01xx) so tests sharing one Svc never share a rate-limit key. */
let line = 100;
const nextNumber = () => {
  line += 1;
  return { national: `(201) 555-0${line}`, e164: `+12015550${line}` };
};

/** A test Svc that texts through a fake SMS provider, and its phone OTP operations. */
interface Harness {
  readonly t: TestSvc;
  readonly fake: FakeSmsProvider;
  /** SvcAuthService, whose RequestPhoneOtpAsync and friends are the operations under test. */
  readonly auth: TestSvc['svc']['auth'];
  user(e164: string, active?: boolean): Promise<string>;
  client(isFirstParty?: boolean): Promise<string>;
  events(kind: string): Promise<{ userId: string | null; data: string }[]>;
  close(): Promise<void>;
}

async function createHarness(kind: 'sqlite' | 'postgres', sms: SmsOptions | false = {}): Promise<Harness> {
  const fake = await FakeSmsProvider.start();
  const t = await createTestSvc(kind, sms === false ? {} : { sms: { ...fake.config(), ...sms } });
  const { svc } = t;
  const db = svc.database.db;
  const phones = phoneOtpRepository(db);
  return {
    t,
    fake,
    auth: svc.auth,
    async user(e164, active = true) {
      const user = await svc.admin.createUserAsync({
        displayName: 'Pat Phone',
        email: `${unique('user')}@example.com`,
        password: 'correct horse battery staple',
      });
      await phones.setUserPhone(user.id, e164, t.clock.now());
      if (!active) await db.updateTable('users').set({ active: 0 }).where('id', '=', user.id).execute();
      return user.id;
    },
    async client(isFirstParty = true) {
      const created = await svc.admin.createClientAsync({
        clientId: unique('app'),
        name: 'Example App',
        audience: 'https://api.example.com',
        redirectUris: ['https://app.example.com/callback'],
        isFirstParty,
        allowedScopes: ['openid', 'profile'],
      });
      return created.clientId;
    },
    async events(kind) {
      const rows = await db.selectFrom('auditEvents').selectAll().where('kind', '=', kind).execute();
      return rows.map((row) => ({ userId: row.userId, data: row.dataJson }));
    },
    async close() {
      await t.close();
      await fake.close();
    },
  };
}

describeAboveStorage('phone OTP sign-in', (kind) => {
  let h: Harness;
  let clientId: string;
  beforeAll(async () => {
    h = await createHarness(kind, { deniedCountries: ['GB'] });
    clientId = await h.client();
  });
  afterAll(() => h.close());

  it('refuses a number of a denied country alike for an account and a stranger, before any text or challenge', async () => {
    const known = '+447400123456';
    await h.user(known);
    const before = h.fake.sent.length;
    const refusals: unknown[] = [];
    for (const start of [
      () => h.auth.requestPhoneOtpAsync({ phoneNumber: known, clientId }),
      () => h.auth.requestPhoneOtpAsync({ phoneNumber: '+44 7400 123457', clientId }),
      () =>
        h.auth.requestPhoneOtpSignupAsync({ displayName: 'Pat', phoneNumber: '+44 7400 123458', clientId }),
    ]) {
      const error: unknown = await start().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SvcValidationError);
      const { status, message, details } = error as SvcValidationError;
      refusals.push({ status, message, details });
    }
    expect(new Set(refusals.map((r) => JSON.stringify(r))).size).toBe(1);
    expect(refusals[0]).toMatchObject({
      status: 400,
      details: [{ path: 'PhoneNumber', message: expect.stringContaining('numbers of United Kingdom (+44)') }],
    });
    expect(h.fake.sent.length).toBe(before);
    const stored = await h.t.svc.database.db
      .selectFrom('phoneOtpChallenges')
      .select('id')
      .where('phoneE164', 'like', '+44%')
      .execute();
    expect(stored).toEqual([]);
  });

  it('texts a code through the provider API and signs the user in with it', async () => {
    const number = nextNumber();
    const userId = await h.user(number.e164);
    const started = await h.auth.requestPhoneOtpAsync(
      { phoneNumber: number.national, clientId },
      { ipAddress: '203.0.113.7' },
    );
    expect(started).toMatchObject({
      phoneNumber: number.e164,
      maskedPhoneNumber: `+1 ••• ••• ${number.e164.slice(-4)}`,
      message: PHONE_OTP_SENT_MESSAGE,
      expiresAt: new Date(h.t.clock.now() + 10 * 60_000).toISOString(),
      nextAllowedSendAt: new Date(h.t.clock.now() + 30_000).toISOString(),
    });
    const sms = h.fake.sent.filter((s) => s.to === number.e164);
    expect(sms).toHaveLength(1);

    const result = await h.auth.verifyPhoneOtpAsync({
      challengeToken: started.challengeToken,
      code: sms[0]?.code ?? '',
    });
    expect(result.tokens?.accessToken).toEqual(expect.any(String));
    expect(result.tokens?.refreshToken).toEqual(expect.any(String));
    const user = await h.t.svc.database.db
      .selectFrom('users')
      .select(['phoneVerified'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(Number(user.phoneVerified)).toBe(1);
    expect((await h.events('auth.phone_otp.verified')).map((e) => e.userId)).toContain(userId);
    // A success of the direct flow, as a direct password sign-in records one.
    const succeeded = (await h.events('oauth.direct_login.succeeded')).filter((e) => e.userId === userId);
    expect(succeeded.map((e) => JSON.parse(e.data) as unknown)).toEqual([
      { route: 'verifyPhoneOtpAsync', method: 'phone_otp' },
    ]);
    // No secret reaches the audit log.
    for (const event of await h.events('auth.phone_otp.sent')) {
      expect(event.data).not.toContain(number.e164);
      expect(event.data).not.toContain(sms[0]?.code ?? 'no-code');
    }

    // Single use: the challenge is spent.
    await expect(
      h.auth.verifyPhoneOtpAsync({ challengeToken: started.challengeToken, code: sms[0]?.code ?? '' }),
    ).rejects.toBeInstanceOf(SvcInvalidOperationError);
  });

  it('stores only the hash of the challenge token and no code', async () => {
    const number = nextNumber();
    await h.user(number.e164);
    const started = await h.auth.requestPhoneOtpAsync({ phoneNumber: number.e164, clientId });
    const code = h.fake.sent.find((s) => s.to === number.e164)?.code ?? '';
    const rows = await h.t.svc.database.db
      .selectFrom('phoneOtpChallenges')
      .selectAll()
      .where('phoneE164', '=', number.e164)
      .execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(started.challengeToken);
    expect(stored).not.toContain(`"${code}"`);
  });

  it('answers an unknown number byte for byte like a known one and texts nothing', async () => {
    const known = nextNumber();
    const unknown = nextNumber();
    await h.user(known.e164);
    const before = h.fake.sent.length;
    const a = await h.auth.requestPhoneOtpAsync({ phoneNumber: known.e164, clientId });
    const b = await h.auth.requestPhoneOtpAsync({ phoneNumber: unknown.e164, clientId });
    expect(h.fake.sent.length).toBe(before + 1);
    const shape = (r: typeof a, n: { e164: string }) =>
      JSON.stringify({ ...r, challengeToken: 'T', phoneNumber: r.phoneNumber.replace(n.e164, 'N') }).replace(
        n.e164.slice(-4),
        'XXXX',
      );
    expect(shape(b, unknown)).toBe(shape(a, known));
    expect(b.challengeToken).toMatch(/^[\x21-\x7e]{20,}$/);
    // The unknown number's challenge never verifies, whatever code is tried.
    await expect(
      h.auth.verifyPhoneOtpAsync({ challengeToken: b.challengeToken, code: '123456' }),
    ).rejects.toThrow('The code is not valid or has expired; request a new code.');
  });

  it('counts attempts: five wrong codes and the right one no longer works', async () => {
    const number = nextNumber();
    await h.user(number.e164);
    const started = await h.auth.requestPhoneOtpAsync({ phoneNumber: number.e164, clientId });
    const code = h.fake.sent.find((s) => s.to === number.e164)?.code ?? '';
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      await expect(
        h.auth.verifyPhoneOtpAsync({ challengeToken: started.challengeToken, code: wrong }),
      ).rejects.toBeInstanceOf(SvcInvalidOperationError);
    }
    await expect(
      h.auth.verifyPhoneOtpAsync({ challengeToken: started.challengeToken, code }),
    ).rejects.toBeInstanceOf(SvcInvalidOperationError);
    const row = await h.t.svc.database.db
      .selectFrom('phoneOtpChallenges')
      .select(['attempts', 'consumedAt'])
      .where('phoneE164', '=', number.e164)
      .executeTakeFirstOrThrow();
    expect(Number(row.attempts)).toBe(5);
    expect(row.consumedAt).toBeNull();
  });

  it('expires challenges after ten minutes', async () => {
    const number = nextNumber();
    await h.user(number.e164);
    const started = await h.auth.requestPhoneOtpAsync({ phoneNumber: number.e164, clientId });
    const code = h.fake.sent.find((s) => s.to === number.e164)?.code ?? '';
    h.t.clock.advance(10 * 60_000);
    await expect(
      h.auth.verifyPhoneOtpAsync({ challengeToken: started.challengeToken, code }),
    ).rejects.toBeInstanceOf(SvcInvalidOperationError);
  });

  it('rate-limits sends per number: SvcSendRefusedError with NextAllowedSendAt, no second text', async () => {
    const number = nextNumber();
    await h.user(number.e164);
    const first = await h.auth.requestPhoneOtpAsync({ phoneNumber: number.e164, clientId });
    h.t.clock.advance(10_000);
    const calls = h.fake.requests.length;
    await expect(h.auth.requestPhoneOtpAsync({ phoneNumber: number.e164, clientId })).rejects.toMatchObject({
      error: 'resend_too_soon',
      status: 429,
      extra: { nextAllowedSendAt: first.nextAllowedSendAt },
    });
    // The provider was not even asked.
    expect(h.fake.requests).toHaveLength(calls);
    expect(h.fake.sent.filter((s) => s.to === number.e164)).toHaveLength(1);
    expect(await h.events('auth.phone_otp.rate_limited')).not.toHaveLength(0);
    h.t.clock.advance(20_000);
    await h.auth.requestPhoneOtpAsync({ phoneNumber: number.e164, clientId });
    expect(h.fake.sent.filter((s) => s.to === number.e164)).toHaveLength(2);
  });

  it('refuses inactive users and non-first-party clients like password login', async () => {
    const number = nextNumber();
    await h.user(number.e164, false);
    const before = h.fake.sent.length;
    await h.auth.requestPhoneOtpAsync({ phoneNumber: number.e164, clientId });
    expect(h.fake.sent.length).toBe(before);

    const thirdParty = await h.client(false);
    await expect(
      h.auth.requestPhoneOtpAsync({ phoneNumber: nextNumber().e164, clientId: thirdParty }),
    ).rejects.toMatchObject({ error: 'invalid_client' });
    await expect(
      h.auth.requestPhoneOtpAsync({ phoneNumber: nextNumber().e164, clientId: 'no-such-client' }),
    ).rejects.toBeInstanceOf(SvcPublicAuthError);
  });

  it('validates input: bad numbers, codes and tokens are validation errors', async () => {
    for (const phoneNumber of ['', 'abc', '+999 123 456 789', '1'.repeat(40)]) {
      await expect(h.auth.requestPhoneOtpAsync({ phoneNumber, clientId })).rejects.toBeInstanceOf(
        SvcValidationError,
      );
    }
    for (const code of ['', '12345', '1234567', 'abcdef']) {
      await expect(
        h.auth.verifyPhoneOtpAsync({ challengeToken: 'x'.repeat(43), code }),
      ).rejects.toBeInstanceOf(SvcValidationError);
    }
    await expect(
      h.auth.verifyPhoneOtpAsync({ challengeToken: 'unknown-token', code: '123456' }),
    ).rejects.toBeInstanceOf(SvcInvalidOperationError);
  });

  it('counts unknown challenge tokens against the address the host names, with every handed-out token', async () => {
    const context = { ipAddress: '203.0.113.77' };
    const unknown = () =>
      h.auth.verifyPhoneOtpAsync({ challengeToken: `unknown-${unique('t')}`, code: '123456' }, context);
    for (let i = 0; i < DEFAULT_FAILURE_RULES.tokenIp.threshold; i += 1) {
      await expect(unknown()).rejects.toBeInstanceOf(SvcInvalidOperationError);
    }
    await expect(unknown()).rejects.toBeInstanceOf(SvcTooManyAttemptsError);
    // Without an address (the host limits its own callers) nothing is counted.
    await expect(
      h.auth.verifyPhoneOtpAsync({ challengeToken: 'unknown-token', code: '123456' }),
    ).rejects.toBeInstanceOf(SvcInvalidOperationError);
  });

  it('raises SvcInvalidOperationError when the provider fails', async () => {
    const number = nextNumber();
    await h.user(number.e164);
    h.fake.failNext(503, { code: 20003, message: 'down' });
    await expect(h.auth.requestPhoneOtpAsync({ phoneNumber: number.e164, clientId })).rejects.toBeInstanceOf(
      SvcInvalidOperationError,
    );
  });
});

describe('phone OTP without SMS configuration', () => {
  it('raises SvcInvalidOperationError (in-process rule 4)', async () => {
    const h = await createHarness('sqlite', false);
    try {
      const clientId = await h.client();
      await expect(
        h.auth.requestPhoneOtpAsync({ phoneNumber: '+12015550123', clientId }),
      ).rejects.toBeInstanceOf(SvcInvalidOperationError);
      await expect(
        h.auth.verifyPhoneOtpAsync({ challengeToken: 'abc', code: '123456' }),
      ).rejects.toBeInstanceOf(SvcInvalidOperationError);
    } finally {
      await h.close();
    }
  });
});
