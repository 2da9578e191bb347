import { afterAll, beforeAll, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../../kernel/clock.js';
import { createAuthHarness, TEST_PASSWORD, type AuthHarness } from '../../test-support/auth-harness.js';
import { TOTP_STEP_MS, wrongCode } from '../../test-support/authenticator-app.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { rejectionOf, selfEnroll } from '../../test-support/mfa.js';
import { deleteExpiredRows } from '../expired-rows.js';
import { authenticatorRepository, recoveryCodeRepository } from './mfa.js';

/**
 * The MFA tables (migration 0011): single use and limits are conditional updates, so that concurrent
 * requests (several nodes, several tabs) cannot use a code twice or guess more than five times.
 */
describeEachDatabase('MFA storage', (kind) => {
  let h: AuthHarness;
  let clientId: string;

  // The per-user limit on wrong codes (five in 15 minutes) is raised, so that the challenge's own
  // limit is what these tests reach.
  const harness = () => createAuthHarness(kind, { failureLimits: { mfaUser: { threshold: 10 } } });
  // One app for the file (each test signs in users of its own), but for the housekeeping test.
  beforeAll(async () => {
    h = await harness();
    clientId = (await h.given.client()).clientId;
  });
  afterAll(async () => {
    await h.close();
  });

  /** The MFA token of a password sign-in (through the file's app and client unless `on` names others). */
  const login = async (
    email: string,
    on: { auth: AuthHarness['auth']; clientId: string } = { auth: h.auth, clientId },
  ) =>
    (
      await on.auth.loginWithPasswordAsync({
        email,
        password: TEST_PASSWORD,
        clientId: on.clientId,
        organizationId: null,
      })
    ).mfaToken ?? '';
  const codeOf = (error: unknown) => (error as { code?: string } | undefined)?.code ?? 'ok';

  it('concurrent guesses cannot pass the limit of five attempts', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.auth, h.clock, user.id);
    const mfaToken = await login(user.email);
    const wrong = wrongCode(app.secret, h.clock.now());
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => rejectionOf(h.auth.verifyMfaChallengeAsync({ mfaToken, code: wrong }))),
    );
    expect(outcomes.map(codeOf).sort()).toEqual([
      ...Array<string>(5).fill('invalid_code'),
      ...Array<string>(3).fill('invalid_token'),
    ]);
    const row = await h.db
      .selectFrom('mfaChallenges')
      .select('attempts')
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.attempts)).toBe(5);
  });

  it('one right code completes one sign-in, however many requests race with it', async () => {
    const user = await h.given.user();
    const app = await selfEnroll(h.auth, h.clock, user.id);
    h.clock.advance(TOTP_STEP_MS);
    const [a, b] = [await login(user.email), await login(user.email)];
    const code = app.code();
    const outcomes = await Promise.all(
      [a, a, b, b].map((mfaToken) => rejectionOf(h.auth.verifyMfaChallengeAsync({ mfaToken, code }))),
    );
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(1);
    expect(
      await h.db.selectFrom('sessions').select('id').where('userId', '=', user.id).execute(),
    ).toHaveLength(1);
  });

  it('a step only moves forward, and an enrollment confirms once within its attempts', async () => {
    const user = await h.given.user();
    const store = authenticatorRepository(h.db);
    const now = h.clock.now();
    await store.insert({
      id: 'mfa_test',
      userId: user.id,
      kind: 'totp',
      label: 'phone',
      secretSealed: 'sealed',
      enrollmentTokenHash: 'enrollment-hash',
      challengeHash: null,
      enrollmentExpiresAt: now + 10 * MINUTE_MS,
      confirmedAt: null,
      lastUsedStep: null,
      enrollmentAttempts: 0,
      createdAt: now,
    });
    const attempts = [];
    for (let i = 0; i < 3; i += 1) attempts.push(await store.countEnrollmentAttempt('mfa_test', now, 2));
    expect(attempts).toEqual([true, true, false]);
    const confirmed = await Promise.all([
      store.confirm('mfa_test', 100, now),
      store.confirm('mfa_test', 100, now),
    ]);
    expect(confirmed.filter(Boolean)).toHaveLength(1);
    expect(await store.findEnrollment('enrollment-hash', now)).toBeUndefined();
    const steps = [];
    for (const step of [100, 99, 101, 101]) steps.push(await store.advanceStep('mfa_test', step));
    expect(steps).toEqual([false, false, true, false]);
    expect(await store.listConfirmed(user.id)).toEqual([
      expect.objectContaining({
        id: 'mfa_test',
        lastUsedStep: 101,
        confirmedAt: now,
        enrollmentTokenHash: null,
      }),
    ]);
  });

  it('recovery codes: replaced as a set, each used once', async () => {
    const user = await h.given.user();
    const store = recoveryCodeRepository(h.db);
    let n = 0;
    const ids = () => `mrc_${(n += 1)}`;
    await store.replace(user.id, ['a', 'b'], h.clock.now(), ids);
    expect(await store.countUnused(user.id)).toBe(2);
    const used = await Promise.all([
      store.use(user.id, 'a', h.clock.now()),
      store.use(user.id, 'a', h.clock.now()),
    ]);
    expect(used.filter(Boolean)).toHaveLength(1);
    expect(await store.countUnused(user.id)).toBe(1);
    const other = await h.given.user();
    expect(await store.use(other.id, 'b', h.clock.now())).toBe(false);
    await store.replace(user.id, ['c'], h.clock.now(), ids);
    expect(await store.use(user.id, 'b', h.clock.now())).toBe(false);
    expect(await store.countUnused(user.id)).toBe(1);
  });

  it('expired MFA challenges are deleted by the housekeeping a day after they expire', async () => {
    // The housekeeping sweeps the whole table: an app of its own.
    const own = await harness();
    try {
      const user = await own.given.user();
      const at = { auth: own.auth, clientId: (await own.given.client()).clientId };
      await selfEnroll(own.auth, own.clock, user.id);
      await login(user.email, at);
      own.clock.advance(10 * MINUTE_MS + DAY_MS - 1);
      expect((await deleteExpiredRows(own.db, own.clock.now() - DAY_MS)).mfaChallenges).toBe(0);
      await login(user.email, at);
      own.clock.advance(2);
      expect((await deleteExpiredRows(own.db, own.clock.now() - DAY_MS)).mfaChallenges).toBe(1);
      expect(await own.db.selectFrom('mfaChallenges').select('tokenHash').execute()).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});
