import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { DAY_MS, MINUTE_MS } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import { createAuthHarness, type AuthHarness } from '../test-support/auth-harness.js';
import { describeEachDatabase } from '../test-support/databases.js';

describeEachDatabase('browser sessions', (kind) => {
  let h: AuthHarness;
  let userId: string;

  // One app for the file: each test has a user of its own.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    userId = (await h.given.user()).id;
  });

  it('creates a hashed issuer session that resolves until it expires after the idle timeout', async () => {
    const authTime = h.clock.now() - MINUTE_MS;
    const { token, expiresAt } = await h.engine.browserSessions.create(userId, ['pwd'], authTime);
    expect(expiresAt).toBe(h.clock.now() + 14 * DAY_MS);
    const row = await h.db
      .selectFrom('browserSessions')
      .selectAll()
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.tokenHash).toBe(sha256Hex(token));
    expect(await h.engine.browserSessions.resolve(token)).toMatchObject({
      userId,
      amr: ['pwd'],
      authTime,
      expiresAt,
    });
    expect(await h.engine.browserSessions.resolve('unknown')).toBeNull();
    expect(await h.engine.browserSessions.resolve(undefined)).toBeNull();
    h.clock.advance(14 * DAY_MS);
    expect(await h.engine.browserSessions.resolve(token)).toBeNull();
  });

  it('ends one session, all of a user, and stops resolving for deactivated users', async () => {
    const one = await h.engine.browserSessions.create(userId, ['pwd'], h.clock.now());
    const two = await h.engine.browserSessions.create(userId, ['pwd'], h.clock.now());
    const three = await h.engine.browserSessions.create(userId, ['pwd'], h.clock.now());
    await h.engine.browserSessions.end(one.token);
    await h.engine.browserSessions.end('unknown');
    expect(await h.engine.browserSessions.resolve(one.token)).toBeNull();
    expect(await h.engine.browserSessions.resolve(two.token)).not.toBeNull();

    await h.db.updateTable('users').set({ active: 0 }).where('id', '=', userId).execute();
    expect(await h.engine.browserSessions.resolve(two.token)).toBeNull();
    await h.db.updateTable('users').set({ active: 1 }).where('id', '=', userId).execute();

    expect(await h.engine.browserSessions.endAllForUser(userId)).toBe(2);
    expect(await h.engine.browserSessions.resolve(three.token)).toBeNull();
  });
});
