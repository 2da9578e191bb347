import { auditEventQuerySchema, type AuditSummaryCategory } from '@svc/contract';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { randomIds } from '../kernel/ids.js';
import { openDatabase, type DatabaseHandle } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test-support/databases.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { createAuditLog, type AuditService } from './audit-service.js';
import { createAuditSummary, type AuditSummarizer } from './summary.js';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 0, 1, 12, 30, 0);

describeEachDatabase('audit summary', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let audit: AuditService;
  let summary: AuditSummarizer;
  let asked: number[][];

  /** Records `kinds` at `at` (epoch ms), then puts the clock back at NOW. */
  const recordAt = async (at: number, ...kinds: string[]) => {
    clock.set(at);
    for (const k of kinds) await audit.record({ kind: k });
    clock.set(NOW);
  };

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    clock = new FakeClock(NOW);
    const repository = auditEventsRepository(handle.db);
    audit = createAuditLog({ repository, clock, ids: randomIds });
    asked = [];
    // Each instant's count is its place in the call: the test reads which instant a bucket got.
    const sessions = {
      countUsableAt: async (instants: readonly number[]) => {
        asked.push([...instants]);
        return instants.map((_, i) => i);
      },
    };
    summary = createAuditSummary({ repository, sessions, clock });
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('counts each category per whole UTC hour or day, grouped in the database, each bucket a kind filter of the list', async () => {
    await recordAt(NOW, 'oauth.hosted_login.succeeded', 'oauth.direct_login.succeeded', 'admin.user.created');
    await recordAt(
      NOW - 30 * 60_000,
      'oauth.hosted_login.failed',
      'auth.password.throttled',
      'auth.otp.throttled',
    );
    await recordAt(
      NOW - 2 * HOUR,
      'invitation.sign_in.succeeded',
      'saml.sign_in.refused',
      'saml.sign_in.completed',
    );
    // 13:00 the day before is the 24-hour window's first instant (it ends at 13:00 today); 12:59:59.999 is outside.
    await recordAt(Date.UTC(2025, 11, 31, 13), 'oauth.direct_login.failed');
    await recordAt(Date.UTC(2025, 11, 31, 13) - 1, 'oauth.hosted_login.succeeded');
    await recordAt(Date.UTC(2025, 11, 27, 8), 'admin.user.created', 'oauth.hosted_login.succeeded');
    await recordAt(NOW, 'admin.organization.created', 'oauth.hosted_logout.completed');

    const day = await summary.summarize({ window: '24h' });
    expect(day).toMatchObject({
      window: '24h',
      bucket: 'hour',
      from: '2025-12-31T13:00:00.000Z',
      to: '2026-01-01T13:00:00.000Z',
      totals: { signIns: 3, failedSignIns: 3, throttled: 2, newUsers: 1 },
      activeSessions: 23,
    });
    expect(day.buckets).toHaveLength(24);
    expect(day.buckets[1]?.start).toBe('2025-12-31T14:00:00.000Z');
    const nonEmpty = day.buckets.filter((b) => b.signIns + b.failedSignIns + b.throttled + b.newUsers > 0);
    expect(nonEmpty).toEqual([
      {
        start: '2025-12-31T13:00:00.000Z',
        signIns: 0,
        failedSignIns: 1,
        throttled: 0,
        newUsers: 0,
        activeSessions: 0,
      },
      {
        start: '2026-01-01T10:00:00.000Z',
        signIns: 1,
        failedSignIns: 1,
        throttled: 0,
        newUsers: 0,
        activeSessions: 21,
      },
      {
        start: '2026-01-01T12:00:00.000Z',
        signIns: 2,
        failedSignIns: 1,
        throttled: 2,
        newUsers: 1,
        activeSessions: 23,
      },
    ]);
    // Sessions are counted at each bucket's end, in one call; the current bucket's end is now.
    expect(asked).toEqual([[...Array.from({ length: 23 }, (_, i) => Date.UTC(2025, 11, 31, 14 + i)), NOW]]);

    const week = await summary.summarize({ window: '7d' });
    expect(week).toMatchObject({
      bucket: 'day',
      from: '2025-12-26T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
      totals: { signIns: 5, failedSignIns: 3, throttled: 2, newUsers: 2 },
    });
    expect(week.buckets.map((b) => [b.start.slice(0, 10), b.signIns, b.newUsers])).toEqual([
      ['2025-12-26', 0, 0],
      ['2025-12-27', 1, 1],
      ['2025-12-28', 0, 0],
      ['2025-12-29', 0, 0],
      ['2025-12-30', 0, 0],
      ['2025-12-31', 1, 0],
      ['2026-01-01', 3, 1],
    ]);

    // The console links a bar to GET /events?kind=<kinds.x>&from=<start>&to=<next start>: the same count.
    for (const { buckets, bucket } of [day, week]) {
      const width = bucket === 'hour' ? HOUR : 24 * HOUR;
      for (const entry of buckets) {
        const from = Date.parse(entry.start);
        for (const category of Object.keys(day.kinds) as AuditSummaryCategory[]) {
          const query = auditEventQuerySchema.parse({
            kind: day.kinds[category],
            from: entry.start,
            to: new Date(from + width).toISOString(),
            limit: 200,
          });
          expect((await audit.list(query)).data.length, `${entry.start} ${category}`).toBe(entry[category]);
        }
      }
    }

    // An hour later the window moves with the clock.
    clock.advance(HOUR);
    const later = await summary.summarize({ window: '24h' });
    expect(later.from).toBe('2025-12-31T14:00:00.000Z');
    expect(later.totals.failedSignIns).toBe(2);
  });
});
