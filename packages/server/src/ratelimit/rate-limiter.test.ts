import { afterEach, beforeEach, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../kernel/clock.js';
import { openDatabase, type DatabaseHandle } from '../storage/database.js';
import { rateLimitRepository } from '../storage/repositories/rate-limits.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test-support/databases.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { RateLimiter } from './rate-limiter.js';
import { DEFAULT_RATE_LIMIT_RULES, type RateLimitPolicy } from './rules.js';

const START = Date.UTC(2026, 0, 1, 12, 0, 0); // aligned to every window below
const WINDOW = 15 * MINUTE_MS;

describeEachDatabase('rate limiter', (kind) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let limiter: RateLimiter;

  beforeEach(async () => {
    database = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(database.target);
    clock = new FakeClock(START);
    limiter = new RateLimiter({ store: rateLimitRepository(handle.db), clock });
  });
  afterEach(async () => {
    await handle.close();
    await database.drop();
  });

  const perIdentifier = (limit: number, minIntervalMs?: number): RateLimitPolicy => ({
    name: 'test.send',
    identifier:
      minIntervalMs === undefined ? { limit, windowMs: WINDOW } : { limit, windowMs: WINDOW, minIntervalMs },
  });

  it('refuses once the limit is reached, reports the window end and does not count refusals', async () => {
    const policy = perIdentifier(3);
    for (let i = 0; i < 3; i++) {
      const decision = await limiter.consume(policy, { identifier: 'ada@example.com' });
      expect(decision.allowed).toBe(true);
      clock.advance(MINUTE_MS);
    }
    // After the third call the next one is already known to wait for the window end.
    const refused = await limiter.consume(policy, { identifier: 'ada@example.com' });
    expect(refused).toEqual({
      allowed: false,
      nextAllowedAt: START + WINDOW,
      retryAfterMs: START + WINDOW - clock.now(),
      refusedBy: 'identifier',
    });
    await limiter.consume(policy, { identifier: 'ada@example.com' });
    const rows = await handle.db.selectFrom('rateLimitCounters').selectAll().execute();
    expect(rows.map((r) => Number(r.count))).toEqual([3]);
    // Another identifier is not affected.
    expect((await limiter.consume(policy, { identifier: 'bob@example.com' })).allowed).toBe(true);
  });

  it('reports nextAllowedAt after the call that fills the window, and peek does not count', async () => {
    const policy = perIdentifier(2);
    const first = await limiter.consume(policy, { identifier: 'a' });
    expect(first).toEqual({ allowed: true, nextAllowedAt: START, retryAfterMs: 0 });
    expect(await limiter.peek(policy, { identifier: 'a' })).toEqual({
      allowed: true,
      nextAllowedAt: START,
      retryAfterMs: 0,
    });
    expect(await limiter.peek(policy, { identifier: 'a' })).toMatchObject({ allowed: true });
    const second = await limiter.consume(policy, { identifier: 'a' });
    expect(second).toEqual({ allowed: true, nextAllowedAt: START + WINDOW, retryAfterMs: WINDOW });
    expect(await limiter.peek(policy, { identifier: 'a' })).toEqual({
      allowed: false,
      nextAllowedAt: START + WINDOW,
      retryAfterMs: WINDOW,
      refusedBy: 'identifier',
    });
  });

  it('allows again when the window rolls over', async () => {
    const policy = perIdentifier(1);
    expect((await limiter.consume(policy, { identifier: 'a' })).allowed).toBe(true);
    clock.advance(WINDOW - 1);
    expect((await limiter.consume(policy, { identifier: 'a' })).allowed).toBe(false);
    clock.advance(1);
    expect((await limiter.consume(policy, { identifier: 'a' })).allowed).toBe(true);
    expect((await limiter.consume(policy, { identifier: 'a' })).nextAllowedAt).toBe(START + 2 * WINDOW);
  });

  it('enforces the minimum interval across window boundaries', async () => {
    const policy = perIdentifier(5, 30_000);
    // 10 s before a window boundary: the next window must not allow an immediate resend.
    clock.set(START + WINDOW - 10_000);
    const sent = await limiter.consume(policy, { identifier: 'a' });
    expect(sent).toEqual({ allowed: true, nextAllowedAt: clock.now() + 30_000, retryAfterMs: 30_000 });
    clock.advance(20_000);
    const early = await limiter.consume(policy, { identifier: 'a' });
    expect(early).toMatchObject({
      allowed: false,
      nextAllowedAt: START + WINDOW + 20_000,
      retryAfterMs: 10_000,
    });
    clock.advance(10_000);
    expect((await limiter.consume(policy, { identifier: 'a' })).allowed).toBe(true);
  });

  it('needs both identifier and IP to allow, and a refusal by one counts against neither', async () => {
    const policy: RateLimitPolicy = {
      name: 'test.both',
      identifier: { limit: 2, windowMs: WINDOW },
      ip: { limit: 3, windowMs: HOUR_MS },
    };
    expect((await limiter.consume(policy, { identifier: 'a', ip: '203.0.113.7' })).allowed).toBe(true);
    expect((await limiter.consume(policy, { identifier: 'a', ip: '203.0.113.7' })).allowed).toBe(true);
    // The identifier refuses; the IP must not have been counted for it.
    const byIdentifier = await limiter.consume(policy, { identifier: 'a', ip: '203.0.113.7' });
    expect(byIdentifier).toMatchObject({
      allowed: false,
      refusedBy: 'identifier',
      nextAllowedAt: START + WINDOW,
    });
    expect((await limiter.consume(policy, { identifier: 'b', ip: '203.0.113.7' })).allowed).toBe(true);
    // Now the IP is full (3 of 3): a fresh identifier is refused by the IP until the hour ends.
    const byIp = await limiter.consume(policy, { identifier: 'c', ip: '203.0.113.7' });
    expect(byIp).toMatchObject({ allowed: false, refusedBy: 'ip', nextAllowedAt: START + HOUR_MS });
    // ... and that refusal did not count against identifier 'c'.
    const rows = await handle.db.selectFrom('rateLimitCounters').select(['key', 'count']).execute();
    expect(rows).toHaveLength(3);
    // Another IP is unaffected.
    expect((await limiter.consume(policy, { identifier: 'c', ip: '198.51.100.1' })).allowed).toBe(true);
    // A subject the caller does not give is not checked.
    expect((await limiter.consume(policy, { ip: '198.51.100.1' })).allowed).toBe(true);
  });

  it('lets exactly `limit` of 50 parallel calls through', async () => {
    const policy: RateLimitPolicy = {
      name: 'test.race',
      identifier: { limit: 10, windowMs: WINDOW },
      ip: { limit: 100, windowMs: WINDOW },
    };
    // On PostgreSQL a second limiter over its own connection pool, as a second node would have. SQLite
    // serves one process: a second synchronous better-sqlite3 connection on the same thread would block
    // on the first one's write lock without ever letting it commit, so both "nodes" share the handle.
    const other =
      kind === 'postgres' ? openDatabase(database.target) : { db: handle.db, close: async () => {} };
    try {
      const nodes = [limiter, new RateLimiter({ store: rateLimitRepository(other.db), clock })];
      const decisions = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          nodes[i % 2]!.consume(policy, { identifier: 'race@example.com', ip: '192.0.2.1' }),
        ),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
      const rows = await handle.db.selectFrom('rateLimitCounters').select(['key', 'count']).execute();
      // Identifier at 10, and refusals rolled back the IP increments too.
      expect(rows.map((r) => Number(r.count)).sort((a, b) => a - b)).toEqual([10, 10]);
    } finally {
      await other.close();
    }
  });

  it('never stores the raw identifier or IP address', async () => {
    await limiter.consume(DEFAULT_RATE_LIMIT_RULES.otpSend, {
      identifier: 'ada@example.com',
      ip: '203.0.113.7',
    });
    await limiter.consume(DEFAULT_RATE_LIMIT_RULES.otpSend, {
      identifier: '+14155550100',
      ip: '2001:db8::1',
    });
    const rows = await handle.db.selectFrom('rateLimitCounters').selectAll().execute();
    expect(rows.length).toBe(6); // window + interval gate per identifier, window per IP
    const dump = JSON.stringify(rows);
    for (const raw of [
      'ada@example.com',
      'ada',
      '203.0.113.7',
      '+14155550100',
      '4155550100',
      '2001:db8::1',
    ]) {
      expect(dump).not.toContain(raw);
    }
    expect(rows.every((r) => /^otp\.send:(id|ip):[0-9a-f]{64}(:interval)?$/.test(r.key))).toBe(true);
  });

  it('cleanup deletes only expired counters', async () => {
    await limiter.consume(perIdentifier(5, 30_000), { identifier: 'old' });
    clock.advance(10 * MINUTE_MS);
    await limiter.consume(perIdentifier(5, 30_000), { identifier: 'new' });
    // 'old' gate expired (10 min > 30 s), 'new' gate has not; both windows end at START + 15 min.
    expect(await limiter.deleteExpired()).toBe(1);
    const keysLeft = async () =>
      (await handle.db.selectFrom('rateLimitCounters').select('key').execute()).length;
    expect(await keysLeft()).toBe(3);
    clock.set(START + WINDOW - 1);
    expect(await limiter.deleteExpired()).toBe(1); // only the 'new' gate
    clock.set(START + WINDOW);
    expect(await limiter.deleteExpired()).toBe(2);
    expect(await keysLeft()).toBe(0);
    // A window that expired is not needed: the next call starts a fresh window.
    expect((await limiter.consume(perIdentifier(1), { identifier: 'old' })).allowed).toBe(true);
  });

  it('tallies without a limit: every one of parallel calls gets its own count, and a new window starts at one', async () => {
    const counts = await Promise.all(
      Array.from({ length: 20 }, () => limiter.tally('test.tally', '203.0.113.9', WINDOW)),
    );
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(new Set(counts.map((c) => c.windowStart))).toEqual(new Set([START]));
    expect((await limiter.tally('test.tally', '198.51.100.1', WINDOW)).count).toBe(1);
    clock.advance(WINDOW);
    expect(await limiter.tally('test.tally', '203.0.113.9', WINDOW)).toEqual({
      count: 1,
      windowStart: START + WINDOW,
    });
    const keys = await handle.db.selectFrom('rateLimitCounters').select('key').execute();
    expect(keys.some((row) => row.key.includes('203.0.113.9'))).toBe(false);
  });
});
