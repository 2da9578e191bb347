import {
  svcMfaChallengeVerifyResultSchema,
  svcTotpEnrollmentStartResultSchema,
  svcTotpEnrollmentVerifyResultSchema,
  type SvcCreatedClient,
  type SvcLoginResult,
} from '@svc/contract';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { MINUTE_MS, toIso } from '../../../kernel/clock.js';
import { sha256Hex } from '../../../kernel/crypto.js';
import { SvcInvalidOperationError } from '../../../kernel/errors.js';
import {
  createAuthHarness,
  HARNESS_TOTP_ISSUER,
  TEST_PASSWORD,
  type AuthHarness,
} from '../../../test-support/auth-harness.js';
import {
  authenticatorCode,
  scanProvisioningUri,
  TOTP_STEP_MS,
  wrongCode,
} from '../../../test-support/authenticator-app.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { enrollForChallenge, mfaSettings, rejectionOf, selfEnroll } from '../../../test-support/mfa.js';

const RECOVERY_CODE = /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

describeAboveStorage('MFA sign-in (direct flow)', (kind) => {
  let h: AuthHarness;
  let client: SvcCreatedClient;

  // One app for the file: each test has a client and users of its own, and starts from the default MFA
  // settings. The per-user limit on wrong codes (mfa-throttle.http.test.ts) is raised, so that the
  // challenge's own limit is what the test of five wrong codes reaches; no other test comes near either.
  beforeAll(async () => {
    h = await createAuthHarness(kind, { failureLimits: { mfaUser: { threshold: 10 } } });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = await h.given.client();
  });
  afterEach(async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings());
  });

  const login = (email: string) =>
    h.auth.loginWithPasswordAsync({
      email,
      password: TEST_PASSWORD,
      clientId: client.clientId,
      organizationId: null,
    });
  const mfaTokenOf = (result: SvcLoginResult) => {
    if (result.mfaToken === null) throw new Error(`no MFA state: ${JSON.stringify(result)}`);
    return result.mfaToken;
  };
  const amrOf = async (accessToken: string | undefined) =>
    (await h.engine.tokens.accessTokens.validate(accessToken ?? '', { audience: null }))?.session.amr;
  const verify = (mfaToken: string, code: string) => h.auth.verifyMfaChallengeAsync({ mfaToken, code });

  it('password login under a policy stops at mfa_enrollment; start and verify complete it with tokens, amr mfa and 10 recovery codes', async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    const user = await h.given.user();
    const result = await login(user.email);
    expect(result).toEqual({
      requiresOrganizationSelection: false,
      pendingAuthToken: null,
      organizations: [],
      tokens: null,
      requiresMfa: true,
      mfaToken: expect.stringMatching(TOKEN),
      requiresMfaEnrollment: true,
      mfaMethods: ['totp'],
    });
    const mfaToken = mfaTokenOf(result);

    const started = svcTotpEnrollmentStartResultSchema.parse(
      await h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken }),
    );
    expect(started.enrollmentToken).toMatch(TOKEN);
    expect(started.expiresAt).toBe(toIso(h.clock.now() + 10 * MINUTE_MS));
    expect(scanProvisioningUri(started.provisioningUri)).toEqual({
      issuer: HARNESS_TOTP_ISSUER,
      label: user.email,
      secret: started.secret,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
    const png = Buffer.from(started.qrCodeDataUrl.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // At rest: the secret sealed, the tokens as hashes.
    const row = await h.db
      .selectFrom('mfaAuthenticators')
      .selectAll()
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      userId: user.id,
      confirmedAt: null,
      enrollmentTokenHash: sha256Hex(started.enrollmentToken),
      challengeHash: sha256Hex(mfaToken),
    });
    expect(row.secretSealed).not.toContain(started.secret);

    const verified = svcTotpEnrollmentVerifyResultSchema.parse(
      await h.auth.verifyTotpEnrollmentAsync({
        enrollmentToken: started.enrollmentToken,
        code: authenticatorCode(started.secret, h.clock.now()),
        mfaToken,
      }),
    );
    expect(verified.authenticatorId).toBe(row.id);
    expect(verified.recoveryCodes).toHaveLength(10);
    for (const code of verified.recoveryCodes) expect(code).toMatch(RECOVERY_CODE);
    expect(verified.tokens).toMatchObject({ clientId: client.clientId, organizationId: null });
    expect(await amrOf(verified.tokens?.accessToken)).toEqual(['pwd', 'otp', 'mfa']);
    const stored = await h.db
      .selectFrom('mfaRecoveryCodes')
      .select('codeHash')
      .where('userId', '=', user.id)
      .execute();
    expect(stored).toHaveLength(10);
    expect(stored.map((r) => r.codeHash).join()).not.toContain(verified.recoveryCodes[0]);

    expect(await h.auth.getMfaStatusAsync(user.id)).toEqual({
      enabled: true,
      totpEnrolled: true,
      recoveryCodesRemaining: 10,
      userSelfEnrollmentEnabled: true,
    });
    expect(await h.auth.listMfaAuthenticatorsAsync(user.id)).toEqual([
      {
        id: row.id,
        type: 'totp',
        label: user.email,
        createdAt: toIso(h.clock.now()),
        confirmedAt: toIso(h.clock.now()),
      },
    ]);
    // Both tokens are used up: a second verify of either kind gets the "sign in again" answer.
    h.clock.advance(TOTP_STEP_MS);
    const again = await rejectionOf(
      h.auth.verifyTotpEnrollmentAsync({
        enrollmentToken: started.enrollmentToken,
        code: authenticatorCode(started.secret, h.clock.now()),
        mfaToken,
      }),
    );
    expect(again).toMatchObject({ code: 'invalid_token', status: 400 });
    expect(
      await rejectionOf(verify(mfaToken, authenticatorCode(started.secret, h.clock.now()))),
    ).toMatchObject({
      code: 'invalid_token',
    });
    expect(await h.auditKinds({ userId: user.id })).toContain('mfa.totp.enrolled');
  });

  it('a later login is challenged (totp and recovery_code); the app code completes it once, and a used code is refused', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.auth, h.clock, user.id);
    h.clock.advance(TOTP_STEP_MS);

    const result = await login(user.email);
    expect(result).toMatchObject({
      requiresMfa: true,
      requiresMfaEnrollment: false,
      mfaMethods: ['totp', 'recovery_code'],
      tokens: null,
    });
    const code = app.code();
    const verified = svcMfaChallengeVerifyResultSchema.parse(await verify(mfaTokenOf(result), code));
    expect(verified).toMatchObject({ method: 'totp', remainingRecoveryCodes: null });
    expect(await amrOf(verified.tokens.accessToken)).toEqual(['pwd', 'otp', 'mfa']);

    // Replays: the same code, and the previous step's (still inside the ±1 window), at a new challenge.
    const next = mfaTokenOf(await login(user.email));
    const previous = authenticatorCode(app.secret, h.clock.now() - TOTP_STEP_MS);
    for (const replayed of [code, previous]) {
      expect(await rejectionOf(verify(next, replayed))).toMatchObject({ code: 'invalid_code', status: 400 });
    }
    h.clock.advance(TOTP_STEP_MS);
    expect((await verify(next, app.code())).method).toBe('totp');
  });

  it('a recovery code works once, however it is typed, and only while the challenge offers it', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.auth, h.clock, user.id);
    const [first = '', second = ''] = app.result.recoveryCodes;

    const typed = first.toLowerCase().replaceAll('-', ' ');
    const verified = await verify(mfaTokenOf(await login(user.email)), typed);
    expect(verified).toMatchObject({ method: 'recovery_code', remainingRecoveryCodes: 9 });
    expect(await amrOf(verified.tokens.accessToken)).toEqual(['pwd', 'otp', 'mfa']);

    const next = mfaTokenOf(await login(user.email));
    expect(await rejectionOf(verify(next, first))).toMatchObject({ code: 'invalid_code' });
    expect(await verify(next, second.replaceAll('-', ''))).toMatchObject({
      method: 'recovery_code',
      remainingRecoveryCodes: 8,
    });

    await h.admin.updateMfaSettingsAsync(mfaSettings({ recoveryCodesEnabled: false }));
    const totpOnly = await login(user.email);
    expect(totpOnly.mfaMethods).toEqual(['totp']);
    expect(await rejectionOf(verify(mfaTokenOf(totpOnly), app.result.recoveryCodes[2] ?? ''))).toMatchObject({
      code: 'invalid_code',
    });
    expect(await h.auth.getMfaStatusAsync(user.id)).toMatchObject({ recoveryCodesRemaining: 8 });
  });

  it('a 10-character recovery code issued before the 125-bit codes still works, once', async () => {
    const user = await h.given.user();
    await selfEnroll(h.auth, h.clock, user.id);
    // What the storage held for a code of the earlier format: the same hash of the normalized code.
    await h.db
      .insertInto('mfaRecoveryCodes')
      .values({
        id: 'mrc_legacy',
        userId: user.id,
        codeHash: sha256Hex('recovery:7K3QD9XW2M'),
        usedAt: null,
        createdAt: h.clock.now(),
      })
      .execute();
    const verified = await verify(mfaTokenOf(await login(user.email)), '7k3qd-9xw2m');
    expect(verified).toMatchObject({ method: 'recovery_code', remainingRecoveryCodes: 10 });
    const again = mfaTokenOf(await login(user.email));
    expect(await rejectionOf(verify(again, '7K3QD-9XW2M'))).toMatchObject({ code: 'invalid_code' });
  });

  it('five wrong codes end the challenge: then even the right code fails, and a new sign-in still works', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.auth, h.clock, user.id);
    h.clock.advance(TOTP_STEP_MS);
    const mfaToken = mfaTokenOf(await login(user.email));
    const wrong = [wrongCode(app.secret, h.clock.now()), '12345', 'abcdef', '1234567', 'ZZZZZ-ZZZZZ'];
    for (const code of wrong) {
      expect(await rejectionOf(verify(mfaToken, code)), code).toMatchObject({
        code: 'invalid_code',
        status: 400,
      });
    }
    expect(await rejectionOf(verify(mfaToken, app.code()))).toMatchObject({
      code: 'invalid_token',
      status: 400,
    });
    const failures = (await h.auditKinds({ userId: user.id })).filter((k) => k === 'mfa.challenge.failed');
    expect(failures).toHaveLength(6);
    // The refused right code was never checked, so its step is still unused.
    expect((await verify(mfaTokenOf(await login(user.email)), app.code())).method).toBe('totp');
  });

  it('an MFA token lives 10 minutes, and so does a forced enrollment', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.auth, h.clock, user.id);
    const [early, late] = [mfaTokenOf(await login(user.email)), mfaTokenOf(await login(user.email))];
    h.clock.advance(10 * MINUTE_MS - 1);
    expect((await verify(early, app.code())).method).toBe('totp');
    h.clock.advance(TOTP_STEP_MS);
    expect(await rejectionOf(verify(late, app.code()))).toMatchObject({ code: 'invalid_token' });

    await h.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    const newcomer = await h.given.user();
    const mfaToken = mfaTokenOf(await login(newcomer.email));
    const started = await h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken });
    h.clock.advance(10 * MINUTE_MS);
    const expired = await rejectionOf(
      h.auth.verifyTotpEnrollmentAsync({
        enrollmentToken: started.enrollmentToken,
        code: authenticatorCode(started.secret, h.clock.now()),
        mfaToken,
      }),
    );
    expect(expired).toMatchObject({ code: 'invalid_token', status: 400 });
    expect(await h.auth.getMfaStatusAsync(newcomer.id)).toMatchObject({ totpEnrolled: false });
  });

  it('enrollment start on a normal challenge and verify on an enrollment-required one are invalid operations', async () => {
    const enrolledUser = await h.given.user();
    const app = await selfEnroll(h.auth, h.clock, enrolledUser.id);
    h.clock.advance(TOTP_STEP_MS);
    const normal = mfaTokenOf(await login(enrolledUser.email));
    const start = await rejectionOf(h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken: normal }));
    expect(start).toBeInstanceOf(SvcInvalidOperationError);
    expect(await h.auth.listMfaAuthenticatorsAsync(enrolledUser.id)).toHaveLength(1);
    expect((await verify(normal, app.code())).method).toBe('totp');

    await h.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    const newcomer = await h.given.user();
    const enrollment = mfaTokenOf(await login(newcomer.email));
    expect(await rejectionOf(verify(enrollment, '123456'))).toBeInstanceOf(SvcInvalidOperationError);
    // Nothing was used up: the enrollment still completes the sign-in.
    const enrolled = await enrollForChallenge(h.auth, h.clock, enrollment);
    expect(enrolled.result.tokens).not.toBeNull();
  });

  it('CreateSessionTokensForUserAsync, the privileged escape hatch, skips MFA', async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
    const user = await h.given.user();
    const tokens = await h.auth.createSessionTokensForUserAsync(
      user.id,
      client.clientId,
      null,
      'pwd',
      null,
      null,
    );
    expect(await amrOf(tokens.accessToken)).toEqual(['pwd']);
  });
});
