import { decodeJwt } from 'jose';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { SvcAuthService } from '../../../app/facades/svc-auth-service.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { codeIn } from '../../../test-support/outbox.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../../test-support/smtp-server.js';
import { createTestSvc, type TestSvc } from '../../../test-support/test-svc.js';

const CLIENT_ID = 'signup-app';

/** Enough time for a wrongly sent message to arrive on the loopback server. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describeAboveStorage('email OTP signup (in-process)', (kind) => {
  let t: TestSvc;
  let smtp: TestSmtpServer;
  let auth: SvcAuthService;

  beforeEach(async () => {
    smtp = await startTestSmtpServer();
    t = await createTestSvc(kind, { smtpUrl: smtp.url() });
    auth = t.svc.auth;
    await t.svc.admin.createClientAsync({
      clientId: CLIENT_ID,
      name: 'Signup app',
      audience: 'https://api.example.com',
      redirectUris: ['https://app.example.com/callback'],
      isFirstParty: true,
    });
  });

  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  const start = (email: string, extra: Record<string, unknown> = {}) =>
    auth.requestEmailOtpSignupAsync({
      displayName: 'Carol',
      email,
      clientId: CLIENT_ID,
      organizationName: null,
      customFields: null,
      ...extra,
    });

  async function userRow(email: string) {
    return t.svc.database.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** The code of the message with this index, once it has arrived. */
  async function codeOfMessage(index: number): Promise<string> {
    const messages = await smtp.waitFor(index + 1);
    return codeIn(messages[index]?.text ?? null);
  }

  it('emails a code over SMTP; the verify creates the verified account with its custom fields and organization and signs in with amr otp', async () => {
    const started = await start(' Carol@Example.com ', {
      organizationName: 'Carol Co',
      customFields: { plan: 'pro', seats: 3 },
    });
    const now = t.clock.now();
    expect(started).toEqual({
      signupToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      challengeToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      maskedEmail: 'C***@Example.com',
      expiresAt: new Date(now + 10 * 60_000).toISOString(),
      nextAllowedSendAt: new Date(now + 30_000).toISOString(),
    });
    expect(started.signupToken).not.toBe(started.challengeToken);
    const [message] = await smtp.waitFor(1);
    expect(message?.rcptTo).toEqual(['Carol@example.com']);
    expect(await userRow('Carol@Example.com')).toBeUndefined();

    const result = await auth.verifyEmailOtpSignupAsync({
      signupToken: started.signupToken,
      challengeToken: started.challengeToken,
      code: codeIn(message?.text ?? null),
    });
    const user = await userRow('Carol@Example.com');
    expect(user).toMatchObject({ displayName: 'Carol', emailVerified: 1, passwordHash: null });
    expect(JSON.parse(user?.customFieldsJson ?? 'null')).toEqual({ plan: 'pro', seats: 3 });
    const organizations = await t.svc.admin.getUserOrganizationsAsync(user?.id ?? '');
    expect(organizations).toEqual([expect.objectContaining({ name: 'Carol Co', role: 'owner' })]);
    expect(result.tokens).toMatchObject({ clientId: CLIENT_ID, organizationId: organizations[0]?.id });
    expect(decodeJwt(result.tokens?.accessToken ?? '')).toMatchObject({
      sub: user?.id,
      org_id: organizations[0]?.id,
    });
    const session = await t.svc.authEngine.tokens.accessTokens.validate(result.tokens?.accessToken ?? '', {
      audience: null,
    });
    expect(session?.session.amr).toEqual(['otp']);
    expect(
      await t.svc.database.db
        .selectFrom('auditEvents')
        .select('kind')
        .where('kind', 'in', ['admin.user.created', 'auth.email_otp.verified'])
        .execute(),
    ).toHaveLength(2);

    // Single use: the same tokens and code again fail, and no second account appears.
    await expect(
      auth.verifyEmailOtpSignupAsync({
        signupToken: started.signupToken,
        challengeToken: started.challengeToken,
        code: codeIn(message?.text ?? null),
      }),
    ).rejects.toMatchObject({ error: 'invalid_code', status: 400 });
  });

  it('answers an address that has an account exactly like a new one, sends it nothing, and never verifies it', async () => {
    await t.svc.admin.createUserAsync({ displayName: 'Dan', email: 'dan@example.com', password: null });
    const fresh = await start('dora@example.com');
    const taken = await start('dan@example.com');
    const shape = (r: { signupToken: string; challengeToken: string }) =>
      JSON.stringify({ ...r, signupToken: 'S', challengeToken: 'C' });
    expect(shape(taken)).toBe(shape(fresh));
    expect(Object.keys(taken)).toEqual(Object.keys(fresh));
    expect([taken.signupToken.length, taken.challengeToken.length]).toEqual([
      fresh.signupToken.length,
      fresh.challengeToken.length,
    ]);
    await smtp.waitFor(1);
    await settle();
    expect(smtp.messages.map((m) => m.rcptTo)).toEqual([['dora@example.com']]);
    for (const code of ['000000', '123456', await codeOfMessage(0)]) {
      await expect(
        auth.verifyEmailOtpSignupAsync({
          signupToken: taken.signupToken,
          challengeToken: taken.challengeToken,
          code,
        }),
      ).rejects.toMatchObject({ error: 'invalid_code' });
    }
    expect((await t.svc.admin.listUsersAsync({})).data).toHaveLength(1);
  });

  it('checks both tokens: a wrong signup token spends no attempt; five wrong codes use the challenge up', async () => {
    const first = await start('erin@example.com');
    const code = await codeOfMessage(0);
    const wrong = code === '000000' ? '111111' : '000000';
    const other = await start('eve@example.com');
    for (const signupToken of [other.signupToken, 'not-the-token']) {
      await expect(
        auth.verifyEmailOtpSignupAsync({ signupToken, challengeToken: first.challengeToken, code }),
      ).rejects.toMatchObject({ error: 'invalid_code' });
    }
    // A login challenge token is no signup challenge.
    await expect(
      auth.verifyEmailOtpSignupAsync({
        signupToken: first.signupToken,
        challengeToken: 'unknown-token',
        code,
      }),
    ).rejects.toMatchObject({ error: 'invalid_code' });
    for (let i = 0; i < 4; i += 1) {
      await expect(auth.verifyEmailOtpSignupAsync({ ...first, code: wrong })).rejects.toMatchObject({
        error: 'invalid_code',
      });
    }
    // Four wrong codes and the token mismatches left one attempt: the right code still works.
    const result = await auth.verifyEmailOtpSignupAsync({ ...first, code });
    expect(result.tokens?.clientId).toBe(CLIENT_ID);
    expect(result.tokens?.organizationId).toBeNull();

    const exhausted = await start('fay@example.com');
    const fayCode = await codeOfMessage(2);
    for (let i = 0; i < 5; i += 1) {
      await expect(
        auth.verifyEmailOtpSignupAsync({ ...exhausted, code: fayCode === '000000' ? '111111' : '000000' }),
      ).rejects.toMatchObject({ error: 'invalid_code' });
    }
    await expect(auth.verifyEmailOtpSignupAsync({ ...exhausted, code: fayCode })).rejects.toMatchObject({
      error: 'invalid_code',
    });
    expect(await userRow('fay@example.com')).toBeUndefined();
  });

  it('fails like a wrong code when the address was taken between start and verify, or the code expired', async () => {
    const raced = await start('gil@example.com');
    const code = await codeOfMessage(0);
    await t.svc.admin.createUserAsync({ displayName: 'Gil', email: 'GIL@example.com', password: null });
    await expect(auth.verifyEmailOtpSignupAsync({ ...raced, code })).rejects.toMatchObject({
      error: 'invalid_code',
    });

    const late = await start('hal@example.com');
    const lateCode = await codeOfMessage(1);
    t.clock.advance(10 * 60_000);
    await expect(auth.verifyEmailOtpSignupAsync({ ...late, code: lateCode })).rejects.toMatchObject({
      error: 'invalid_code',
    });
    expect(await userRow('hal@example.com')).toBeUndefined();
  });

  it('rejects an organizationId, bad custom fields and non-first-party clients before sending anything', async () => {
    await expect(start('ivy@example.com', { organizationId: 'org_1' })).rejects.toMatchObject({
      status: 400,
      details: [expect.objectContaining({ path: 'organizationId' })],
    });
    for (const customFields of [['a'], 'text', { '': 1 }]) {
      await expect(start('ivy@example.com', { customFields })).rejects.toMatchObject({ status: 400 });
    }
    await expect(start('ivy@example.com', { displayName: '' })).rejects.toMatchObject({ status: 400 });
    await t.svc.admin.createClientAsync({
      clientId: 'third-party',
      name: 'Third',
      audience: 'https://api3.example.com',
      redirectUris: ['https://third.example.com/cb'],
      isFirstParty: false,
    });
    for (const clientId of ['third-party', 'missing', null]) {
      await expect(start('ivy@example.com', { clientId })).rejects.toMatchObject({
        error: 'invalid_client',
        status: 400,
      });
    }
    const rejected = await t.svc.database.db
      .selectFrom('auditEvents')
      .select('dataJson')
      .where('kind', '=', 'oauth.direct_login.rejected')
      .execute();
    expect(rejected).toHaveLength(3);
    expect(rejected[0]?.dataJson).toContain('requestEmailOtpSignupAsync');
    await settle();
    expect(smtp.messages).toHaveLength(0);
  });
});
