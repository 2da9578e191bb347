import { afterEach, beforeEach, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../kernel/clock.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

describeEachDatabase('housekeeping', (kind) => {
  let t: TestSvc;
  let clientId: string;
  const email = 'ada@example.com';

  beforeEach(async () => {
    t = await createTestSvc(kind);
    await t.svc.admin.createUserAsync({
      displayName: 'Ada',
      email,
      password: 'correct horse battery staple',
    });
    clientId = (
      await t.svc.admin.createClientAsync({
        clientId: 'web',
        name: 'Web',
        audience: 'https://api.example.com',
        redirectUris: ['https://app.example.com/callback'],
        isFirstParty: true,
      })
    ).clientId;
  });
  afterEach(async () => {
    await t.close();
  });

  const count = async (table: 'emailOtpChallenges' | 'passwordResetTokens') =>
    Number(
      (
        await t.svc.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('deletes one-time codes and tokens a day after they expire, and keeps live ones', async () => {
    await t.svc.auth.requestEmailOtpAsync({ email, clientId, organizationId: null });
    await t.svc.auth.requestPasswordResetEmailAsync({ email, clientId });
    expect(await count('emailOtpChallenges')).toBe(1);
    expect(await count('passwordResetTokens')).toBe(1);

    // Expired (the code lives 10 minutes, the reset token 30) but inside the day of grace: kept.
    t.clock.advance(31 * MINUTE_MS);
    let report = await t.svc.housekeeping();
    expect(report.deletedExpired.emailOtpChallenges).toBe(0);
    expect(await count('emailOtpChallenges')).toBe(1);

    // A fresh code now, then past the grace of the first ones: only the old rows go.
    t.clock.advance(DAY_MS);
    await t.svc.auth.requestEmailOtpAsync({ email, clientId, organizationId: null });
    report = await t.svc.housekeeping();
    expect(report.deletedExpired).toMatchObject({ emailOtpChallenges: 1, passwordResetTokens: 1 });
    expect(await count('emailOtpChallenges')).toBe(1);
    expect(await count('passwordResetTokens')).toBe(0);
  });

  it('deletes token sessions a day after their deadline, with the refresh tokens that outlive it', async () => {
    const signIn = async () => {
      const login = await t.svc.auth.loginWithPasswordAsync({
        email,
        password: 'correct horse battery staple',
        clientId,
      });
      return login.tokens!;
    };
    const rows = async () => ({
      sessions: (await t.svc.database.db.selectFrom('sessions').select('id').execute()).map((r) => r.id),
      tokenSessions: (await t.svc.database.db.selectFrom('refreshTokens').select('sessionId').execute()).map(
        (r) => r.sessionId,
      ),
    });
    // The defaults: a session idles out after 14 days; its refresh token would live 30.
    const idled = await signIn();
    t.clock.advance(14 * DAY_MS + MINUTE_MS);
    let report = await t.svc.housekeeping();
    expect(report.deletedSessions).toEqual({ sessions: 0, refreshTokens: 0 });
    const live = await signIn();

    t.clock.advance(DAY_MS);
    report = await t.svc.housekeeping();
    expect(report.deletedSessions).toEqual({ sessions: 1, refreshTokens: 1 });
    expect(await rows()).toEqual({ sessions: [live.sessionId], tokenSessions: [live.sessionId] });
    expect(idled.sessionId).not.toBe(live.sessionId);
    await expect(t.svc.auth.refreshAsync({ refreshToken: live.refreshToken })).resolves.toMatchObject({
      sessionId: live.sessionId,
    });
  });
});
