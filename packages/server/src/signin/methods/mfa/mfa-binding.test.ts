import type { SvcCreatedClient, SvcTotpEnrollmentStartResult } from '@svc/contract';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { createAuthHarness, TEST_PASSWORD, type AuthHarness } from '../../../test-support/auth-harness.js';
import { authenticatorCode, TOTP_STEP_MS } from '../../../test-support/authenticator-app.js';
import { describeAboveStorage } from '../../../test-support/databases.js';
import { mfaSettings, rejectionOf, selfEnroll } from '../../../test-support/mfa.js';

/**
 * docs/reference/sign-in.md "Multi-factor authentication": enrollment token plus MFA token proof must match user, organization,
 * client, flow, authorization request and challenge. Every mismatch is the same `invalid_token` (400),
 * and none of them uses up the proof that does match.
 */
describeAboveStorage('MFA proof binding', (kind) => {
  let h: AuthHarness;
  let client: SvcCreatedClient;

  // One app for the file: each test has a client and users of its own, and sets the MFA settings.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = await h.given.client();
    await h.admin.updateMfaSettingsAsync(mfaSettings({ requireForAllUsers: true }));
  });

  /** A user in the mfa_enrollment state of a direct password login: the MFA token. */
  async function enrollmentChallenge(email: string): Promise<string> {
    const result = await h.auth.loginWithPasswordAsync({
      email,
      password: TEST_PASSWORD,
      clientId: client.clientId,
      organizationId: null,
    });
    if (result.mfaToken === null || !result.requiresMfaEnrollment) throw new Error('no enrollment state');
    return result.mfaToken;
  }
  const verifyEnrollment = (started: SvcTotpEnrollmentStartResult, mfaToken?: string) =>
    h.auth.verifyTotpEnrollmentAsync({
      enrollmentToken: started.enrollmentToken,
      code: authenticatorCode(started.secret, h.clock.now()),
      ...(mfaToken === undefined ? {} : { mfaToken }),
    });
  const INVALID = { code: 'invalid_token', status: 400 };

  it('an enrollment verifies only with the MFA token it was started with', async () => {
    const ann = await h.given.user();
    const bob = await h.given.user();
    const annToken = await enrollmentChallenge(ann.email);
    const annOther = await enrollmentChallenge(ann.email);
    const bobToken = await enrollmentChallenge(bob.email);
    const started = await h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken: annToken });

    expect(
      await rejectionOf(verifyEnrollment(started, annOther)),
      'same user, other challenge',
    ).toMatchObject(INVALID);
    expect(await rejectionOf(verifyEnrollment(started, bobToken)), 'another user').toMatchObject(INVALID);
    expect(await rejectionOf(verifyEnrollment(started)), 'no MFA token').toMatchObject(INVALID);
    expect(await rejectionOf(verifyEnrollment(started, 'x'.repeat(43))), 'unknown').toMatchObject(INVALID);

    const done = await verifyEnrollment(started, annToken);
    expect(done.tokens).toMatchObject({ clientId: client.clientId });
    expect(await h.auth.getMfaStatusAsync(bob.id)).toMatchObject({ totpEnrolled: false });
    // The other challenges were not touched: Bob can still enroll with his.
    const bobStarted = await h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken: bobToken });
    h.clock.advance(TOTP_STEP_MS);
    expect((await verifyEnrollment(bobStarted, bobToken)).tokens).not.toBeNull();
  });

  it('a self-enrollment refuses an MFA token, and its enrollment token completes no sign-in', async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings());
    const ann = await h.given.user();
    const enrolled = await selfEnroll(h.auth, h.clock, ann.id);
    h.clock.advance(TOTP_STEP_MS);
    const challenge = await h.auth.loginWithPasswordAsync({
      email: ann.email,
      password: TEST_PASSWORD,
      clientId: client.clientId,
      organizationId: null,
    });
    const started = await h.auth.startTotpEnrollmentAsync(ann.id, { label: 'Second phone' });
    expect(await rejectionOf(verifyEnrollment(started, challenge.mfaToken ?? ''))).toMatchObject(INVALID);

    const second = await verifyEnrollment(started);
    expect(second).toEqual({ authenticatorId: expect.any(String), recoveryCodes: [], tokens: null });
    // The MFA token was not consumed by the refused attempt.
    const verified = await h.auth.verifyMfaChallengeAsync({
      mfaToken: challenge.mfaToken ?? '',
      code: enrolled.code(),
    });
    expect(verified.method).toBe('totp');
  });

  it('an MFA token of another flow (a hosted authorization request) is unknown to the direct operations, and the converse', async () => {
    const ann = await h.given.user();
    const hosted = await h.engine.signIn.signIn({
      userId: ann.id,
      clientId: client.clientId,
      requestedOrganizationId: null,
      amr: ['pwd'],
      authTime: h.clock.now(),
      flow: 'authorize',
      resume: { authRequestId: 'azr_test' },
    });
    if (hosted.kind !== 'mfa') throw new Error('expected the mfa state');
    const direct = await enrollmentChallenge(ann.email);
    const started = await h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken: direct });

    expect(
      await rejectionOf(h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken: hosted.mfaToken })),
    ).toMatchObject(INVALID);
    expect(await rejectionOf(verifyEnrollment(started, hosted.mfaToken))).toMatchObject(INVALID);
    expect(
      await rejectionOf(h.auth.verifyMfaChallengeAsync({ mfaToken: hosted.mfaToken, code: '123456' })),
    ).toMatchObject(INVALID);
    // The hosted flow reaches challenges by hash and flow name only: the direct token is not its own.
    expect(
      await rejectionOf(h.engine.mfa.verifyChallenge(direct, '123456', { flow: 'authorize', route: 'test' })),
    ).toMatchObject(INVALID);
    expect(await h.engine.mfa.peekChallenge(hosted.mfaToken, 'authorize')).toMatchObject({
      userId: ann.id,
      flow: 'authorize',
      context: { resume: { authRequestId: 'azr_test' } },
    });

    expect((await verifyEnrollment(started, direct)).tokens).not.toBeNull();
  });

  it('the first-party gate holds on the MFA operations: a client made third-party after the challenge is refused before any code is looked at', async () => {
    await h.admin.updateMfaSettingsAsync(mfaSettings());
    const ann = await h.given.user();
    const enrolled = await selfEnroll(h.auth, h.clock, ann.id);
    h.clock.advance(TOTP_STEP_MS);
    const login = await h.auth.loginWithPasswordAsync({
      email: ann.email,
      password: TEST_PASSWORD,
      clientId: client.clientId,
      organizationId: null,
    });
    const mfaToken = login.mfaToken ?? '';
    const setFirstParty = (value: 0 | 1) =>
      h.db
        .updateTable('clients')
        .set({ isFirstParty: value })
        .where('clientId', '=', client.clientId)
        .execute();

    await setFirstParty(0);
    const refused = await rejectionOf(h.auth.verifyMfaChallengeAsync({ mfaToken, code: enrolled.code() }));
    expect(refused).toMatchObject({ code: 'invalid_client', status: 400 });
    const rejections = await h.db
      .selectFrom('auditEvents')
      .select(['clientId', 'dataJson'])
      .where('kind', '=', 'oauth.direct_login.rejected')
      .where('clientId', '=', client.clientId)
      .execute();
    expect(
      rejections.map((r) => ({ clientId: r.clientId, data: JSON.parse(r.dataJson) as unknown })),
    ).toEqual([
      { clientId: client.clientId, data: { client_id: client.clientId, route: 'verifyMfaChallengeAsync' } },
    ]);
    const attempts = await h.db
      .selectFrom('mfaChallenges')
      .select('attempts')
      .where('userId', '=', ann.id)
      .executeTakeFirstOrThrow();
    expect(Number(attempts.attempts)).toBe(0);

    // Once first-party again, the untouched challenge completes with the same code.
    await setFirstParty(1);
    expect((await h.auth.verifyMfaChallengeAsync({ mfaToken, code: enrolled.code() })).method).toBe('totp');
  });

  it('the first-party gate holds on forced enrollment start and verify', async () => {
    const ann = await h.given.user();
    const mfaToken = await enrollmentChallenge(ann.email);
    const started = await h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken });
    await h.db
      .updateTable('clients')
      .set({ isFirstParty: 0 })
      .where('clientId', '=', client.clientId)
      .execute();
    expect(await rejectionOf(h.auth.startTotpEnrollmentForChallengeAsync({ mfaToken }))).toMatchObject({
      code: 'invalid_client',
    });
    expect(await rejectionOf(verifyEnrollment(started, mfaToken))).toMatchObject({ code: 'invalid_client' });
    expect(await h.auth.getMfaStatusAsync(ann.id)).toMatchObject({ totpEnrolled: false });
  });
});
