import { sql } from 'kysely';
import {
  INTERVAL_GATE_WINDOW_START,
  type RateLimitCheck,
  type RateLimitStore,
} from '../../ratelimit/repository.js';
import type { Tx, Db } from '../database.js';

/** Thrown inside the transaction to roll back the checks already counted when a later one refuses. */
class Refused extends Error {}

/**
 * Counters in `rate_limit_counters`. Each check is one conditional upsert
 * (`INSERT … ON CONFLICT (key, window_start) DO UPDATE SET count = count + 1 WHERE <still allowed>
 * RETURNING key`): on PostgreSQL the conflicting row is locked and the WHERE re-evaluated on its latest
 * version, on SQLite writers are serialized, so exactly `limit` concurrent calls pass on both. No row
 * returned = refused. All checks of one call run in one transaction, in a fixed (key, window start)
 * order so that two calls touching the same rows cannot deadlock on PostgreSQL.
 */
export function rateLimitRepository(db: Db): RateLimitStore {
  return {
    async tryConsume(checks, now) {
      const ordered = [...checks].sort(compareChecks);
      try {
        await db.transaction().execute(async (tx) => {
          for (const check of ordered) {
            if (!(await consumeOne(tx, check, now))) throw new Refused();
          }
        });
        return true;
      } catch (error) {
        if (error instanceof Refused) return false;
        throw error;
      }
    },

    async increment(slot, now) {
      const row = await db
        .insertInto('rateLimitCounters')
        .values({ ...slot, count: 1, lastAt: now })
        .onConflict((oc) =>
          oc
            .columns(['key', 'windowStart'])
            .doUpdateSet({ count: sql<number>`rate_limit_counters.count + 1`, lastAt: now }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async read(slots) {
      if (slots.length === 0) return [];
      const rows = await db
        .selectFrom('rateLimitCounters')
        .selectAll()
        .where((eb) =>
          eb.or(slots.map((s) => eb.and([eb('key', '=', s.key), eb('windowStart', '=', s.windowStart)]))),
        )
        .execute();
      return rows.map((r) => ({ ...r, count: Number(r.count) }));
    },

    async deleteExpired(now) {
      const result = await db
        .deleteFrom('rateLimitCounters')
        .where('expiresAt', '<=', now)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

async function consumeOne(tx: Tx, check: RateLimitCheck, now: number): Promise<boolean> {
  if (check.kind === 'window') {
    const row = await tx
      .insertInto('rateLimitCounters')
      .values({
        key: check.key,
        windowStart: check.windowStart,
        count: 1,
        lastAt: now,
        expiresAt: check.expiresAt,
      })
      .onConflict((oc) =>
        oc
          .columns(['key', 'windowStart'])
          .doUpdateSet({ count: sql<number>`rate_limit_counters.count + 1`, lastAt: now })
          .where('rateLimitCounters.count', '<', check.limit),
      )
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }
  // The gate row holds the time of the last allowed call; it expires when the interval has passed.
  const row = await tx
    .insertInto('rateLimitCounters')
    .values({
      key: check.key,
      windowStart: INTERVAL_GATE_WINDOW_START,
      count: 1,
      lastAt: now,
      expiresAt: now + check.minIntervalMs,
    })
    .onConflict((oc) =>
      oc
        .columns(['key', 'windowStart'])
        .doUpdateSet({
          count: sql<number>`rate_limit_counters.count + 1`,
          lastAt: now,
          expiresAt: now + check.minIntervalMs,
        })
        .where('rateLimitCounters.lastAt', '<=', now - check.minIntervalMs),
    )
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

function compareChecks(a: RateLimitCheck, b: RateLimitCheck): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  const wa = a.kind === 'window' ? a.windowStart : INTERVAL_GATE_WINDOW_START;
  const wb = b.kind === 'window' ? b.windowStart : INTERVAL_GATE_WINDOW_START;
  return wa - wb;
}
