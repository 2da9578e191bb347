import { afterEach, beforeEach, expect, it } from 'vitest';
import { SvcSendRefusedError } from '../../../ratelimit/refused-send.js';
import { describeEachDatabase } from '../../../test-support/databases.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../../test-support/smtp-server.js';
import { createTestSvc, TEST_ORIGIN, type TestSvc } from '../../../test-support/test-svc.js';

const SECOND_MS = 1000;

interface Setup {
  readonly t: TestSvc;
  readonly smtp: TestSmtpServer;
  /** The operations as a host calls them (`svc.auth`: parsed, then run by PasswordlessSignIn). */
  readonly flows: TestSvc['svc']['auth'];
}

async function setup(kind: 'sqlite' | 'postgres'): Promise<Setup> {
  const smtp = await startTestSmtpServer();
  const t = await createTestSvc(kind, { smtpUrl: smtp.url() });
  return { t, smtp, flows: t.svc.auth };
}

function codeOf(text: string): string {
  const match = /code is (\d{6})/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no code in: ${text}`);
  return match[1];
}

function linkOf(text: string): URL {
  const match = /(http\S+magic-link\?token=\S+)/.exec(text);
  if (match?.[1] === undefined) throw new Error(`no link in: ${text}`);
  return new URL(match[1]);
}

describeEachDatabase('passwordless sign-in', (kind) => {
  let s: Setup;
  let clientId: string;

  beforeEach(async () => {
    s = await setup(kind);
    const client = await s.t.svc.admin.createClientAsync({
      clientId: 'first-party-app',
      name: 'First party',
      audience: 'https://api.example.com',
      redirectUris: ['https://app.example.com/callback'],
      isFirstParty: true,
    });
    clientId = client.clientId;
    await s.t.svc.admin.createUserAsync({ displayName: 'Alice', email: 'alice@example.com', password: null });
  });

  afterEach(async () => {
    await s.t.close();
    await s.smtp.close();
  });

  async function sessionAmr(accessToken: string): Promise<readonly string[] | undefined> {
    const validated = await s.t.svc.authEngine.tokens.accessTokens.validate(accessToken, { audience: null });
    return validated?.session.amr;
  }

  async function emailVerified(email: string): Promise<number | undefined> {
    const row = await s.t.svc.database.db
      .selectFrom('users')
      .select('emailVerified')
      .where('email', '=', email)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.emailVerified);
  }

  it('emails a 6-digit code over SMTP that signs the user in once, with amr otp, and verifies the email', async () => {
    const start = await s.flows.requestEmailOtpAsync({ email: 'Alice@Example.com', clientId });
    const now = s.t.clock.now();
    expect(start).toMatchObject({
      maskedEmail: 'A***@Example.com',
      expiresAt: new Date(now + 10 * 60 * SECOND_MS).toISOString(),
      nextAllowedSendAt: new Date(now + 30 * SECOND_MS).toISOString(),
    });
    const [message] = await s.smtp.waitFor(1);
    expect(message?.rcptTo).toEqual(['alice@example.com']);
    const code = codeOf(message?.text ?? '');
    expect(await emailVerified('alice@example.com')).toBe(0);

    const result = await s.flows.verifyEmailOtpAsync({ challengeToken: start.challengeToken, code });
    expect(result.tokens?.clientId).toBe(clientId);
    expect(await sessionAmr(result.tokens?.accessToken ?? '')).toEqual(['otp']);
    expect(await emailVerified('alice@example.com')).toBe(1);

    await expect(
      s.flows.verifyEmailOtpAsync({ challengeToken: start.challengeToken, code }),
    ).rejects.toMatchObject({ error: 'invalid_code', status: 400 });
  });

  it('answers known and unknown addresses alike and emails only the known one', async () => {
    const known = await s.flows.requestEmailOtpAsync({ email: 'alice@example.com', clientId });
    const unknown = await s.flows.requestEmailOtpAsync({ email: 'anne@example.com', clientId });
    const strip = (r: { challengeToken: string }) => JSON.stringify({ ...r, challengeToken: 'x' });
    expect(strip(unknown)).toBe(strip(known));
    expect(unknown.challengeToken.length).toBe(known.challengeToken.length);
    await s.smtp.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 50)); // let a wrong second message arrive
    expect(s.smtp.messages).toHaveLength(1);
    for (const code of ['000000', '123456']) {
      await expect(
        s.flows.verifyEmailOtpAsync({ challengeToken: unknown.challengeToken, code }),
      ).rejects.toMatchObject({ error: 'invalid_code' });
    }
  });

  it('allows 5 attempts: the right code after 5 wrong ones fails', async () => {
    const start = await s.flows.requestEmailOtpAsync({ email: 'alice@example.com', clientId });
    const code = codeOf((await s.smtp.waitFor(1))[0]?.text ?? '');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      await expect(
        s.flows.verifyEmailOtpAsync({ challengeToken: start.challengeToken, code: wrong }),
      ).rejects.toMatchObject({ error: 'invalid_code' });
    }
    await expect(
      s.flows.verifyEmailOtpAsync({ challengeToken: start.challengeToken, code }),
    ).rejects.toMatchObject({ error: 'invalid_code' });
  });

  it('expires a code after 10 minutes', async () => {
    const start = await s.flows.requestEmailOtpAsync({ email: 'alice@example.com', clientId });
    const code = codeOf((await s.smtp.waitFor(1))[0]?.text ?? '');
    s.t.clock.advance(10 * 60 * SECOND_MS);
    await expect(
      s.flows.verifyEmailOtpAsync({ challengeToken: start.challengeToken, code }),
    ).rejects.toMatchObject({ error: 'invalid_code' });
  });

  it('refuses a resend within 30 s with SvcSendRefusedError (when to ask again) and no email', async () => {
    const first = await s.flows.requestEmailOtpAsync({ email: 'alice@example.com', clientId });
    s.t.clock.advance(10 * SECOND_MS);
    const refused = s.flows.requestEmailOtpAsync({ email: 'alice@example.com', clientId });
    await expect(refused).rejects.toBeInstanceOf(SvcSendRefusedError);
    await expect(refused).rejects.toMatchObject({
      error: 'resend_too_soon',
      status: 429,
      retryAfterSeconds: 20,
      extra: { nextAllowedSendAt: first.nextAllowedSendAt },
      refused: { nextAllowedSendAt: Date.parse(first.nextAllowedSendAt), retryAfterMs: 20 * SECOND_MS },
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.smtp.messages).toHaveLength(1);
    s.t.clock.advance(20 * SECOND_MS);
    await s.flows.requestEmailOtpAsync({ email: 'alice@example.com', clientId });
    expect(await s.smtp.waitFor(2)).toHaveLength(2);
  });

  it('rejects non-first-party and unknown clients before sending anything', async () => {
    await s.t.svc.admin.createClientAsync({
      clientId: 'third-party',
      name: 'Third',
      audience: 'https://api3.example.com',
      redirectUris: ['https://third.example.com/cb'],
      isFirstParty: false,
    });
    for (const id of ['third-party', 'nope', null]) {
      await expect(
        s.flows.requestEmailOtpAsync({ email: 'alice@example.com', clientId: id }),
      ).rejects.toMatchObject({ error: 'invalid_client', status: 400 });
      await expect(
        s.flows.requestMagicLinkAsync({ email: 'alice@example.com', clientId: id }),
      ).rejects.toMatchObject({ error: 'invalid_client', status: 400 });
    }
    expect(s.smtp.messages).toHaveLength(0);
  });

  it('validates requests (400 naming the field)', async () => {
    await expect(
      s.flows.requestEmailOtpAsync({ email: 'not-an-email', clientId } as never),
    ).rejects.toMatchObject({ status: 400 });
    await expect(
      s.flows.verifyEmailOtpAsync({ challengeToken: '', code: '1' } as never),
    ).rejects.toMatchObject({
      status: 400,
    });
    await expect(s.flows.completeMagicLinkAsync({} as never)).rejects.toMatchObject({ status: 400 });
  });

  it('emails a magic link bound to its client, usable once, with amr email', async () => {
    const start = await s.flows.requestMagicLinkAsync({ email: 'alice@example.com', clientId });
    const now = s.t.clock.now();
    expect(start).toEqual({
      maskedEmail: 'a***@example.com',
      expiresAt: new Date(now + 15 * 60 * SECOND_MS).toISOString(),
      nextAllowedSendAt: new Date(now + 30 * SECOND_MS).toISOString(),
    });
    const link = linkOf((await s.smtp.waitFor(1))[0]?.text ?? '');
    expect(`${link.origin}${link.pathname}`).toBe(`${TEST_ORIGIN}${s.t.svc.config.authBase}/magic-link`);
    const token = link.searchParams.get('token') ?? '';

    await s.t.svc.admin.createClientAsync({
      clientId: 'other-app',
      name: 'Other',
      audience: 'https://api2.example.com',
      redirectUris: ['https://other.example.com/cb'],
      isFirstParty: true,
    });
    await expect(s.flows.completeMagicLinkAsync({ token, clientId: 'other-app' })).rejects.toMatchObject({
      error: 'invalid_token',
      status: 400,
    });

    const result = await s.flows.completeMagicLinkAsync({ token, clientId });
    expect(result.tokens?.clientId).toBe(clientId);
    expect(await sessionAmr(result.tokens?.accessToken ?? '')).toEqual(['email']);
    expect(await emailVerified('alice@example.com')).toBe(1);
    await expect(s.flows.completeMagicLinkAsync({ token, clientId })).rejects.toMatchObject({
      error: 'invalid_token',
    });
  });

  it('expires a magic link after 15 minutes and answers unknown addresses alike without email', async () => {
    const known = await s.flows.requestMagicLinkAsync({ email: 'alice@example.com', clientId });
    const unknown = await s.flows.requestMagicLinkAsync({ email: 'anne@example.com', clientId });
    expect(JSON.stringify(unknown)).toBe(JSON.stringify(known));
    const token = linkOf((await s.smtp.waitFor(1))[0]?.text ?? '').searchParams.get('token') ?? '';
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(s.smtp.messages).toHaveLength(1);
    s.t.clock.advance(15 * 60 * SECOND_MS);
    await expect(s.flows.completeMagicLinkAsync({ token, clientId })).rejects.toMatchObject({
      error: 'invalid_token',
    });
  });

  it('leads to organization selection when the user belongs to several organizations', async () => {
    const users = await s.t.svc.admin.listUsersAsync({});
    const alice = users.data.find((u) => u.email === 'alice@example.com');
    for (const name of ['One', 'Two']) {
      const org = await s.t.svc.admin.createOrganizationAsync({ name });
      await s.t.svc.admin.createMembershipAsync({
        organizationId: org.id,
        userId: alice?.id ?? '',
        role: 'member',
      });
    }
    const start = await s.flows.requestEmailOtpAsync({ email: 'alice@example.com', clientId });
    const code = codeOf((await s.smtp.waitFor(1))[0]?.text ?? '');
    const result = await s.flows.verifyEmailOtpAsync({ challengeToken: start.challengeToken, code });
    expect(result.requiresOrganizationSelection).toBe(true);
    expect(result.tokens).toBeNull();
    expect(result.organizations).toHaveLength(2);
  });
});
