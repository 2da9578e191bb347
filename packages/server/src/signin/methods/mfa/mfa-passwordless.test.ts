import { afterEach, beforeEach, expect, it } from 'vitest';
import { TOTP_STEP_MS } from '../../../test-support/authenticator-app.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { enrollForChallenge, mfaSettings, selfEnroll } from '../../../test-support/mfa.js';
import { codeIn, linkIn } from '../../../test-support/outbox.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../../test-support/smtp-server.js';
import { createTestSvc, type TestSvc } from '../../../test-support/test-svc.js';

/** Every sign-in path passes the MFA gate: email codes and magic links stop at the MFA states too. */
describeAboveStorage('MFA after passwordless sign-in', (kind) => {
  let t: TestSvc;
  let smtp: TestSmtpServer;
  let clientId: string;

  beforeEach(async () => {
    smtp = await startTestSmtpServer();
    t = await createTestSvc(kind, { smtpUrl: smtp.url() });
    clientId = (
      await t.svc.admin.createClientAsync({
        clientId: 'first-party-app',
        name: 'First party',
        audience: 'https://api.example.com',
        redirectUris: ['https://app.example.com/callback'],
        isFirstParty: true,
      })
    ).clientId;
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  const amrOf = async (accessToken: string | undefined) =>
    (await t.svc.authEngine.tokens.accessTokens.validate(accessToken ?? '', { audience: null }))?.session.amr;

  it('an email code under a policy leads to mfa_enrollment; enrolling completes it with amr otp and mfa', async () => {
    await t.svc.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    await t.svc.admin.createUserAsync({ displayName: 'Alice', email: 'alice@example.com', password: null });
    const start = await t.svc.auth.requestEmailOtpAsync({ email: 'alice@example.com', clientId });
    const [message] = await smtp.waitFor(1);
    const result = await t.svc.auth.verifyEmailOtpAsync({
      challengeToken: start.challengeToken,
      code: codeIn(message?.text ?? null),
    });
    expect(result).toMatchObject({
      requiresMfa: true,
      requiresMfaEnrollment: true,
      mfaMethods: ['totp'],
      tokens: null,
    });
    const enrolled = await enrollForChallenge(t.svc.auth, t.clock, result.mfaToken ?? '');
    expect(await amrOf(enrolled.result.tokens?.accessToken)).toEqual(['otp', 'mfa']);
  });

  it('a magic link of a user with an authenticator leads to the mfa state; the app code completes it', async () => {
    const user = await t.svc.admin.createUserAsync({
      displayName: 'Bea',
      email: 'bea@example.com',
      password: null,
    });
    const signIn = async (count: number) => {
      await t.svc.auth.requestMagicLinkAsync({ email: 'bea@example.com', clientId });
      const message = (await smtp.waitFor(count))[count - 1];
      const token = new URL(linkIn(message?.text ?? null)).searchParams.get('token') ?? '';
      return t.svc.auth.completeMagicLinkAsync({ token, clientId });
    };
    // The first link proves the address the operator gave (docs/decisions/accounts-linking-unverified-accounts.md):
    // a factor set up after that stays.
    expect(await signIn(1)).toMatchObject({ requiresMfa: false });
    const app = await selfEnroll(t.svc.auth, t.clock, user.id);
    t.clock.advance(10 * TOTP_STEP_MS);
    const result = await signIn(2);
    expect(result).toMatchObject({
      requiresMfa: true,
      requiresMfaEnrollment: false,
      mfaMethods: ['totp', 'recovery_code'],
      tokens: null,
    });
    const verified = await t.svc.auth.verifyMfaChallengeAsync({
      mfaToken: result.mfaToken ?? '',
      code: app.code(),
    });
    expect(await amrOf(verified.tokens.accessToken)).toEqual(['email', 'otp', 'mfa']);
  });
});
