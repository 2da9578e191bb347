import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SvcInvalidOperationError, SvcPublicAuthError, SvcValidationError } from '../../../kernel/errors.js';
import { phoneOtpRepository } from '../../../storage/repositories/phone-otp.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { FakeSmsProvider } from '../../../test-support/fake-sms-provider.js';
import { createTestSvc, type TestSvc } from '../../../test-support/test-svc.js';
import type { SvcPhoneOtpSignupStartRequest } from '@svc/contract';
import { PHONE_OTP_SIGNUP_SENT_MESSAGE } from './phone-otp-service.js';

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${(counter += 1)}`;
/** Distinct valid US numbers (201-555-02xx), so tests sharing one Svc never share a rate-limit key. */
let line = 200;
const nextNumber = () => {
  line += 1;
  return { national: `(201) 555-0${line}`, e164: `+12015550${line}` };
};

const INVALID_CODE = 'The code is not valid or has expired; request a new code.';

describeAboveStorage('phone OTP signup in-process', (kind) => {
  let t: TestSvc;
  let fake: FakeSmsProvider;
  let clientId: string;

  beforeAll(async () => {
    fake = await FakeSmsProvider.start();
    t = await createTestSvc(kind, { sms: fake.config() });
    clientId = await client(true);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  async function client(isFirstParty: boolean): Promise<string> {
    const created = await t.svc.admin.createClientAsync({
      clientId: unique('app'),
      name: 'Example App',
      audience: 'https://api.example.com',
      redirectUris: ['https://app.example.com/callback'],
      isFirstParty,
      allowedScopes: ['openid', 'profile', 'email'],
    });
    return created.clientId;
  }

  /** An existing account with `e164` as its (verified or not) number. */
  async function existingUser(e164: string): Promise<string> {
    const user = await t.svc.admin.createUserAsync({
      displayName: 'Pat Phone',
      email: `${unique('user')}@example.com`,
    });
    await phoneOtpRepository(t.svc.database.db).setUserPhone(user.id, e164, t.clock.now());
    return user.id;
  }

  const textsTo = (e164: string) => fake.sent.filter((sms) => sms.to === e164);
  const textedCode = (e164: string) => fake.lastCode(e164) ?? '';
  /** Starts a signup of `e164` for the first-party client. */
  const startSignup = (e164: string, displayName = 'A') =>
    t.svc.auth.requestPhoneOtpSignupAsync({ displayName, phoneNumber: e164, clientId });
  /** Verifies a started signup (its two tokens) with `code`. */
  const verifySignup = (started: { signupToken: string; challengeToken: string }, code: string) =>
    t.svc.auth.verifyPhoneOtpSignupAsync({
      signupToken: started.signupToken,
      challengeToken: started.challengeToken,
      code,
    });
  const userRow = (id: string) =>
    t.svc.database.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const usersWithNumber = (e164: string) =>
    t.svc.database.db.selectFrom('users').select('id').where('phoneE164', '=', e164).execute();

  it('texts a code, then creates a phone-only account with its organization and custom fields and signs it in', async () => {
    const number = nextNumber();
    const started = await t.svc.auth.requestPhoneOtpSignupAsync(
      {
        displayName: '  Pat Phone ',
        phoneNumber: number.national,
        clientId,
        organizationName: 'Phone Co',
        customFields: { plan: 'pro', seats: 3, tags: ['a', null] },
      },
      { ipAddress: '203.0.113.9' },
    );
    expect(started).toMatchObject({
      phoneNumber: number.e164,
      maskedPhoneNumber: `+1 ••• ••• ${number.e164.slice(-4)}`,
      message: PHONE_OTP_SIGNUP_SENT_MESSAGE,
      expiresAt: new Date(t.clock.now() + 10 * 60_000).toISOString(),
      nextAllowedSendAt: new Date(t.clock.now() + 30_000).toISOString(),
    });
    expect(started.signupToken).not.toBe(started.challengeToken);
    expect(textsTo(number.e164)).toHaveLength(1);
    // Only hashes of the two tokens are stored.
    const stored = JSON.stringify(
      await t.svc.database.db
        .selectFrom('phoneOtpChallenges')
        .selectAll()
        .where('phoneE164', '=', number.e164)
        .execute(),
    );
    expect(stored).not.toContain(started.signupToken);
    expect(stored).not.toContain(started.challengeToken);

    const result = await verifySignup(started, textedCode(number.e164));
    const accessToken = result.tokens?.accessToken ?? '';
    const claims = decodeJwt(accessToken);
    const [account] = await usersWithNumber(number.e164);
    expect(claims.sub).toBe(account?.id);
    const user = await userRow(account?.id ?? '');
    expect(user).toMatchObject({ displayName: 'Pat Phone', email: null, emailKey: null, passwordHash: null });
    expect(Number(user.phoneVerified)).toBe(1);
    expect(JSON.parse(user.customFieldsJson ?? 'null')).toEqual({ plan: 'pro', seats: 3, tags: ['a', null] });
    const organizations = await t.svc.admin.getUserOrganizationsAsync(user.id);
    expect(organizations).toEqual([expect.objectContaining({ name: 'Phone Co', role: 'owner' })]);
    expect(claims.org_id).toBe(organizations[0]?.id);
    expect(result.tokens?.organizationId).toBe(organizations[0]?.id);

    // The session is live for a resource server, and its amr is sms.
    const validated = await t.svc.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com');
    expect(validated?.userId).toBe(user.id);
    const session = await t.svc.database.db
      .selectFrom('sessions')
      .select('amrJson')
      .where('id', '=', validated?.sessionId ?? '')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(session.amrJson)).toEqual(['sms']);

    // Single use.
    await expect(verifySignup(started, textedCode(number.e164))).rejects.toThrow(INVALID_CODE);
  });

  it('answers a number that already has an account byte for byte like a new one, texts nothing and never verifies', async () => {
    const fresh = nextNumber();
    const taken = nextNumber();
    const ownerId = await existingUser(taken.e164);
    const a = await startSignup(fresh.e164, 'Sam');
    const b = await startSignup(taken.e164, 'Sam');
    const shape = (result: typeof a, e164: string) =>
      JSON.stringify({ ...result, challengeToken: 'C', signupToken: 'S' })
        .replaceAll(e164, '+NUMBER')
        .replaceAll(e164.slice(-4), 'XXXX');
    expect(shape(b, taken.e164)).toBe(shape(a, fresh.e164));
    expect(textsTo(fresh.e164)).toHaveLength(1);
    expect(textsTo(taken.e164)).toHaveLength(0);

    // Even the owner's real login code (a pending verification at the provider) does not create a
    // second account for the number, and it stays usable for the owner's login.
    t.clock.advance(31_000);
    const login = await t.svc.auth.requestPhoneOtpAsync({ phoneNumber: taken.e164, clientId });
    const ownerCode = textedCode(taken.e164);
    await expect(verifySignup(b, ownerCode)).rejects.toThrow(INVALID_CODE);
    expect(await usersWithNumber(taken.e164)).toEqual([{ id: ownerId }]);
    const signedIn = await t.svc.auth.verifyPhoneOtpAsync({
      challengeToken: login.challengeToken,
      code: ownerCode,
    });
    expect(decodeJwt(signedIn.tokens?.accessToken ?? '').sub).toBe(ownerId);
  });

  it('binds the signup token to its challenge and keeps login and signup challenges apart', async () => {
    const one = nextNumber();
    const two = nextNumber();
    const first = await startSignup(one.e164);
    const second = await startSignup(two.e164, 'B');
    const code = textedCode(one.e164);
    await expect(
      verifySignup({ signupToken: second.signupToken, challengeToken: first.challengeToken }, code),
    ).rejects.toThrow(INVALID_CODE);
    // A signup challenge is no login challenge.
    await expect(
      t.svc.auth.verifyPhoneOtpAsync({ challengeToken: first.challengeToken, code }),
    ).rejects.toThrow(INVALID_CODE);
    // Neither refusal spent the challenge or the provider's verification.
    const created = await verifySignup(first, code);
    expect(created.tokens).not.toBeNull();
    expect(created.tokens?.organizationId).toBeNull();
  });

  it('counts attempts and expires: five wrong codes or ten minutes and the right code fails', async () => {
    const number = nextNumber();
    const started = await startSignup(number.e164);
    const code = textedCode(number.e164);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1)
      await expect(verifySignup(started, wrong)).rejects.toBeInstanceOf(SvcInvalidOperationError);
    await expect(verifySignup(started, code)).rejects.toThrow(INVALID_CODE);
    expect(await usersWithNumber(number.e164)).toEqual([]);

    const later = nextNumber();
    const again = await startSignup(later.e164);
    t.clock.advance(10 * 60_000);
    await expect(verifySignup(again, textedCode(later.e164))).rejects.toThrow(INVALID_CODE);
    expect(await usersWithNumber(later.e164)).toEqual([]);
  });

  it('fails like a wrong code when the number was taken between start and verify', async () => {
    const number = nextNumber();
    const started = await startSignup(number.e164);
    const ownerId = await existingUser(number.e164);
    await expect(verifySignup(started, textedCode(number.e164))).rejects.toThrow(INVALID_CODE);
    expect(await usersWithNumber(number.e164)).toEqual([{ id: ownerId }]);
  });

  it('validates: an organizationId, custom fields that are no JSON object, a bad number or name', async () => {
    const base = { displayName: 'A', phoneNumber: nextNumber().e164, clientId };
    const bad: unknown[] = [
      { ...base, organizationId: 'org_1' },
      { ...base, customFields: ['a'] },
      { ...base, customFields: 'text' },
      { ...base, customFields: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
      { ...base, customFields: { big: 'x'.repeat(20_000) } },
      { ...base, displayName: '   ' },
      { ...base, phoneNumber: 'call me' },
      { ...base, phoneNumber: '+999 123 456 789' },
    ];
    for (const request of bad) {
      await expect(
        t.svc.auth.requestPhoneOtpSignupAsync(request as SvcPhoneOtpSignupStartRequest),
      ).rejects.toBeInstanceOf(SvcValidationError);
    }
    await expect(
      t.svc.auth.requestPhoneOtpSignupAsync({ ...base, organizationId: null, customFields: null }),
    ).resolves.toMatchObject({ phoneNumber: base.phoneNumber });
    await expect(
      t.svc.auth.verifyPhoneOtpSignupAsync({
        signupToken: '',
        challengeToken: 'x'.repeat(43),
        code: '123456',
      }),
    ).rejects.toBeInstanceOf(SvcValidationError);
  });

  it('refuses clients that are not first-party before texting anything', async () => {
    const number = nextNumber();
    const thirdParty = await client(false);
    await expect(
      t.svc.auth.requestPhoneOtpSignupAsync({
        displayName: 'A',
        phoneNumber: number.e164,
        clientId: thirdParty,
      }),
    ).rejects.toMatchObject({ error: 'invalid_client', status: 400 });
    await expect(
      t.svc.auth.requestPhoneOtpSignupAsync({ displayName: 'A', phoneNumber: number.e164, clientId: 'nope' }),
    ).rejects.toBeInstanceOf(SvcPublicAuthError);
    expect(textsTo(number.e164)).toHaveLength(0);
  });

  it('lists a phone-only user for operators and answers userinfo without email claims', async () => {
    const number = nextNumber();
    const started = await startSignup(number.e164, 'Una Info');
    const result = await verifySignup(started, textedCode(number.e164));
    const accessToken = result.tokens?.accessToken ?? '';
    const sub = decodeJwt(accessToken).sub;

    const info = await t.svc.app.inject({
      method: 'GET',
      url: `${t.svc.config.authBase}/userinfo`,
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(info.statusCode).toBe(200);
    const claims = info.json<Record<string, unknown>>();
    expect(claims).toMatchObject({ sub, name: 'Una Info', amr: ['sms'] });
    expect(claims).not.toHaveProperty('email');
    expect(claims).not.toHaveProperty('email_verified');
    expect(claims).not.toHaveProperty('preferred_username');

    const list = await t.svc.app.inject({
      method: 'GET',
      url: '/svc/admin/auth/api/users?limit=200',
      headers: t.operator,
    });
    expect(list.statusCode).toBe(200);
    const listed = list
      .json<{ data: { id: string; email: string | null }[] }>()
      .data.find((u) => u.id === sub);
    expect(listed).toMatchObject({ id: sub, email: null, emailVerified: false });
  });
});

describe('phone OTP signup without SMS configuration', () => {
  it('raises SvcInvalidOperationError (in-process rule 4)', async () => {
    const t = await createTestSvc('sqlite');
    try {
      await expect(
        t.svc.auth.requestPhoneOtpSignupAsync({
          displayName: 'A',
          phoneNumber: '+12015550123',
          clientId: 'app',
        }),
      ).rejects.toBeInstanceOf(SvcInvalidOperationError);
      await expect(
        t.svc.auth.verifyPhoneOtpSignupAsync({ signupToken: 's', challengeToken: 'c', code: '123456' }),
      ).rejects.toBeInstanceOf(SvcInvalidOperationError);
    } finally {
      await t.close();
    }
  });
});
