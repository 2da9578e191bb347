import { MAX_SESSIONS_PER_REVOCATION } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SvcConflictError, SvcNotFoundError, SvcValidationError } from '../../kernel/errors.js';
import { createAuthHarness, type AuthHarness } from '../../test-support/auth-harness.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { operatorSessionStore } from './operator-sessions.js';

// The operator's session list and revocation over real storage: counts, the family rule, the 10,000
// limit, operation ids under concurrency, and well-formed but odd ids reaching the database.
describeEachDatabase('operator sessions (list, revocation preview and revocation)', (kind) => {
  let h: AuthHarness;
  let clientId: string;
  let serial = 0;

  beforeAll(async () => {
    h = await createAuthHarness(kind);
    clientId = (await h.given.client()).record.clientId;
  });
  afterAll(() => h.close());

  /**
   * `count` sessions of `user` (each with one usable, one consumed refresh token), inserted directly:
   * created now, for an hour idle and two at most, unless `fields` say otherwise.
   */
  const insertSessions = async (
    user: string,
    count: number,
    fields: {
      revokedAt?: number;
      createdAt?: number;
      idleExpiresAt?: number;
      absoluteExpiresAt?: number;
    } = {},
  ) => {
    const now = h.clock.now();
    const createdAt = fields.createdAt ?? now;
    const ids: string[] = [];
    for (let start = 0; start < count; start += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - start) }, () => {
        serial += 1;
        return `ses_${String(serial).padStart(12, '0')}`;
      });
      await h.db
        .insertInto('sessions')
        .values(
          batch.map((id) => ({
            id,
            userId: user,
            clientId,
            organizationId: null,
            grantedScopesJson: null,
            resource: null,
            amrJson: '["pwd"]',
            authTime: now,
            userAgent: null,
            ipAddress: null,
            createdAt,
            lastSeenAt: createdAt,
            idleExpiresAt: fields.idleExpiresAt ?? now + 3_600_000,
            absoluteExpiresAt: fields.absoluteExpiresAt ?? now + 7_200_000,
            revokedAt: fields.revokedAt ?? null,
            revokedReason: fields.revokedAt === undefined ? null : 'logout',
          })),
        )
        .execute();
      const tokens = batch.flatMap((sessionId) =>
        [null, now].map((consumedAt) => ({
          id: `rft_${sessionId}_${consumedAt === null ? 'live' : 'used'}`,
          sessionId,
          tokenHash: `hash-${sessionId}-${consumedAt === null ? 'live' : 'used'}`,
          createdAt: now,
          expiresAt: now + 3_600_000,
          consumedAt,
          revokedAt: fields.revokedAt ?? null,
        })),
      );
      await h.db.insertInto('refreshTokens').values(tokens).execute();
      ids.push(...batch);
    }
    return ids;
  };
  const unrevokedTokens = async (sessionIds: readonly string[]) =>
    (
      await h.db
        .selectFrom('refreshTokens')
        .select('id')
        .where('sessionId', 'in', sessionIds)
        .where('revokedAt', 'is', null)
        .execute()
    ).length;

  it('counts, revokes whole families, and tells newly from already revoked sessions', async () => {
    const user = (await h.given.user()).id;
    const usable = async () => (await operatorSessionStore(h.db).countUsableAt([h.clock.now()]))[0] ?? 0;
    const before = await usable();
    const live = await insertSessions(user, 3);
    const ended = await insertSessions(user, 2, { revokedAt: h.clock.now() - 1000 });
    // The console's overview counts the usable ones only.
    expect(await usable()).toBe(before + 3);

    expect(await h.admin.previewSessionRevocationAsync({ userId: user })).toEqual({
      matchedSessions: 5,
      activeRefreshTokens: 3,
      activeBrowserSessions: 0,
    });
    expect(await unrevokedTokens(live)).toBe(6);

    h.clock.advance(1000);
    const result = await h.admin.revokeSessionsAsync({
      userId: user,
      confirm: true,
      expectedMatchedSessions: 5,
    });
    expect(result).toEqual({
      matchedSessions: 5,
      newlyRevokedSessions: 3,
      alreadyRevokedSessions: 2,
      newlyRevokedRefreshTokens: 3,
      endedBrowserSessions: 0,
    });
    // The consumed tokens too: no family is left half-revoked.
    expect(await unrevokedTokens([...live, ...ended])).toBe(0);
    expect(await usable()).toBe(before);
    const page = await h.admin.listSessionsAsync({ userId: user, limit: 10 });
    expect(page.data.map((session) => session.id)).toEqual([...live, ...ended].reverse());
    for (const session of page.data.slice(0, 2)) expect(session.revokedReason).toBe('logout');
    for (const session of page.data.slice(2)) {
      expect(session).toMatchObject({
        active: false,
        revokedAt: new Date(h.clock.now()).toISOString(),
        revokedReason: 'admin_revoked',
      });
    }
  });

  it('counts the sessions usable at each instant, now or earlier: created, not yet revoked, before both deadlines', async () => {
    const now = h.clock.now();
    const hour = 3_600_000;
    const instants = [now - 3 * hour, now - 2 * hour, now - hour, now];
    const store = operatorSessionStore(h.db);
    const before = await store.countUsableAt(instants);
    const user = (await h.given.user()).id;
    await insertSessions(user, 1, { createdAt: now - 3 * hour });
    await insertSessions(user, 1, { createdAt: now - 2 * hour - 1 });
    // Revoked at the third instant, idle a moment after the second, past its end at the first.
    await insertSessions(user, 1, { createdAt: now - 3 * hour, revokedAt: now - hour });
    await insertSessions(user, 1, { createdAt: now - 3 * hour, idleExpiresAt: now - 2 * hour + 1 });
    await insertSessions(user, 1, { createdAt: now - 4 * hour, absoluteExpiresAt: now - 3 * hour });
    await insertSessions(user, 1, { createdAt: now + 1 });
    const after = await store.countUsableAt(instants);
    expect(after.map((count, i) => count - (before[i] ?? 0))).toEqual([3, 4, 2, 2]);
    expect(await store.countUsableAt([])).toEqual([]);
  });

  it(`refuses a revocation matching more than ${MAX_SESSIONS_PER_REVOCATION} sessions, and allows exactly that many`, async () => {
    const user = (await h.given.user()).id;
    const ids = await insertSessions(user, MAX_SESSIONS_PER_REVOCATION + 1);
    expect(await h.admin.previewSessionRevocationAsync({ userId: user })).toEqual({
      matchedSessions: MAX_SESSIONS_PER_REVOCATION + 1,
      activeRefreshTokens: MAX_SESSIONS_PER_REVOCATION + 1,
      activeBrowserSessions: 0,
    });
    const refused = h.admin.revokeSessionsAsync({ userId: user, confirm: true });
    await expect(refused).rejects.toThrow(SvcConflictError);
    await expect(refused).rejects.toThrow(/more than 10,000 sessions/);
    expect(await unrevokedTokens(ids.slice(0, 500))).toBe(1000);

    const [last] = ids.slice(-1);
    await h.db.deleteFrom('refreshTokens').where('sessionId', '=', last!).execute();
    await h.db.deleteFrom('sessions').where('id', '=', last!).execute();
    const result = await h.admin.revokeSessionsAsync({ userId: user, confirm: true });
    expect(result).toEqual({
      matchedSessions: MAX_SESSIONS_PER_REVOCATION,
      newlyRevokedSessions: MAX_SESSIONS_PER_REVOCATION,
      alreadyRevokedSessions: 0,
      newlyRevokedRefreshTokens: MAX_SESSIONS_PER_REVOCATION,
      endedBrowserSessions: 0,
    });
    const live = await h.admin.listSessionsAsync({ userId: user, active: true });
    expect(live).toEqual({ data: [], nextCursor: null });
  });

  it('runs concurrent executions of one operation id once, and answers both with its counts', async () => {
    const user = (await h.given.user()).id;
    await insertSessions(user, 4);
    const request = {
      userId: user,
      confirm: true,
      operationId: `op-${kind}-concurrent`,
      reason: 'laptop lost',
    };
    const before = (await h.auditKinds()).filter((k) => k === 'admin.sessions.revoked').length;
    const results = await Promise.all([
      h.admin.revokeSessionsAsync(request),
      h.admin.revokeSessionsAsync(request),
      h.admin.revokeSessionsAsync(request),
    ]);
    const expected = {
      matchedSessions: 4,
      newlyRevokedSessions: 4,
      alreadyRevokedSessions: 0,
      newlyRevokedRefreshTokens: 4,
      endedBrowserSessions: 0,
    };
    expect(results).toEqual([expected, expected, expected]);
    expect((await h.auditKinds()).filter((k) => k === 'admin.sessions.revoked')).toHaveLength(before + 1);
    // The stored answer, though the sessions are all revoked now; another reason is refused.
    expect(await h.admin.revokeSessionsAsync(request)).toEqual(expected);
    await expect(h.admin.revokeSessionsAsync({ ...request, reason: 'other' })).rejects.toThrow(
      SvcConflictError,
    );
  });

  it('answers a retry of an operation stored before browser sessions were counted with none ended', async () => {
    const user = (await h.given.user()).id;
    const earlier = { matchedSessions: 1, newlyRevokedSessions: 1, alreadyRevokedSessions: 0 };
    const operationId = `op-${kind}-earlier`;
    await h.db
      .insertInto('sessionRevocationOperations')
      .values({
        operationId,
        selectorJson: JSON.stringify({ userId: user }),
        reason: null,
        createdAt: h.clock.now(),
        resultJson: JSON.stringify({ ...earlier, newlyRevokedRefreshTokens: 1 }),
      })
      .execute();
    expect(await h.admin.revokeSessionsAsync({ userId: user, confirm: true, operationId })).toEqual({
      ...earlier,
      newlyRevokedRefreshTokens: 1,
      endedBrowserSessions: 0,
    });
  });

  it('lets well-formed odd ids reach the database without a failure, and refuses malformed ones', async () => {
    const odd = ['ü'.repeat(200), '🙂'.repeat(100), "usr_' OR 1=1 --", 'usr_%_*'];
    for (const id of odd) {
      expect(await h.admin.previewSessionRevocationAsync({ userId: id, organizationId: id })).toEqual({
        matchedSessions: 0,
        activeRefreshTokens: 0,
        activeBrowserSessions: 0,
      });
      await expect(h.admin.revokeSessionsAsync({ sessionId: id, confirm: true })).rejects.toThrow(
        SvcNotFoundError,
      );
      expect(await h.admin.listSessionsAsync({ userId: id, organizationId: id })).toEqual({
        data: [],
        nextCursor: null,
      });
    }
    const longClient = `c${'x'.repeat(255)}`;
    expect(await h.admin.listSessionsAsync({ clientId: longClient })).toEqual({ data: [], nextCursor: null });
    for (const bad of [
      { userId: 'u'.repeat(201) },
      { userId: 'a\u0000b' },
      { clientApplicationId: `c${'x'.repeat(256)}` },
      { sessionId: 'a', operationId: 'o'.repeat(129) },
      { sessionId: 'a', reason: 'r'.repeat(501) },
      { sessionId: 'a', expectedMatchedSessions: 1.5 },
      {},
    ]) {
      await expect(h.admin.revokeSessionsAsync({ ...bad, confirm: true })).rejects.toThrow(
        SvcValidationError,
      );
    }
  });
});
