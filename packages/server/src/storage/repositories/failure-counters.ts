import { sql, type RawBuilder } from 'kysely';
import type {
  CountedFailure,
  FailureCheck,
  FailureCounterStore,
} from '../../ratelimit/failure-repository.js';
import type { Db, Tx } from '../database.js';

/** Thrown inside the transaction to roll back the failures already counted when a later key is locked. */
class Locked extends Error {}

/**
 * Counters in `failure_counters`. Each key is one conditional upsert that counts a failure only while the
 * row is not locked (`… ON CONFLICT (key) DO UPDATE … WHERE locked_until <= now RETURNING …`): on
 * PostgreSQL the conflicting row is locked and the WHERE re-evaluated on its latest version, on SQLite
 * writers are serialized, so no two concurrent checks see the same count. The keys of one check run in
 * one transaction, in key order, so that two checks sharing rows cannot deadlock on PostgreSQL. The rule's
 * numbers enter the statement as literals (a handful of rules, so a handful of statement texts).
 */
export function failureCounterRepository(db: Db): FailureCounterStore {
  return {
    async begin(checks, now) {
      const ordered = [...checks].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      try {
        const counted = await db.transaction().execute(async (tx) => {
          const rows: CountedFailure[] = [];
          for (const check of ordered) {
            const started = await countOne(tx, check, now);
            if (started === undefined) throw new Locked();
            rows.push({ key: check.key, windowStart: started, threshold: check.threshold });
          }
          return rows;
        });
        return { counted };
      } catch (error) {
        if (!(error instanceof Locked)) throw error;
      }
      return {
        lockedUntil: await lockedUntil(
          db,
          ordered.map((c) => c.key),
          now,
        ),
      };
    },

    async takeBack(counted) {
      for (const failure of counted) {
        await sql`update failure_counters set count = count - 1,
            locked_until = case when count - 1 < ${sql.lit(failure.threshold)} then 0 else locked_until end
          where key = ${failure.key} and window_start = ${failure.windowStart} and count > 0`.execute(db);
      }
    },

    async reset(keys) {
      if (keys.length > 0) await db.deleteFrom('failureCounters').where('key', 'in', keys).execute();
    },

    lockedUntil: (keys, now) => lockedUntil(db, keys, now),

    async deleteExpired(now) {
      const result = await db.deleteFrom('failureCounters').where('expiresAt', '<=', now).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

async function lockedUntil(db: Db, keys: readonly string[], now: number): Promise<number> {
  if (keys.length === 0) return now;
  const row = await db
    .selectFrom('failureCounters')
    .select((eb) => eb.fn.max('lockedUntil').as('until'))
    .where('key', 'in', keys)
    .where('lockedUntil', '>', now)
    .executeTakeFirst();
  return Math.max(now, Number(row?.until ?? now));
}

/** Counts one failure; the window start it was counted in, or undefined when the key is locked. */
async function countOne(tx: Tx, check: FailureCheck, now: number): Promise<number | undefined> {
  const at = sql`cast(${now} as bigint)`;
  const windowMs = sql.lit(check.windowMs);
  // In DO UPDATE, `failure_counters.*` is the stored row: a window that has passed starts anew.
  const fresh = sql`failure_counters.window_start + ${windowMs} <= ${at}`;
  const count = sql`case when ${fresh} then 1 else failure_counters.count + 1 end`;
  const start = sql`case when ${fresh} then ${at} else failure_counters.window_start end`;
  const lock = lockExpression(check, count, start, at);
  const first = firstRow(check, now);
  const result = await sql<{ started: number }>`
    insert into failure_counters (key, window_start, count, locked_until, expires_at)
    values (${check.key}, ${at}, 1, cast(${first.lockedUntil} as bigint), cast(${first.expiresAt} as bigint))
    on conflict (key) do update set
      count = ${count},
      window_start = ${start},
      locked_until = ${lock},
      expires_at = case when ${lock} > ${start} + ${windowMs} then ${lock} else ${start} + ${windowMs} end
    where failure_counters.locked_until <= ${at}
    returning window_start as started`.execute(tx);
  const started = result.rows[0]?.started;
  return started === undefined ? undefined : Number(started);
}

/** The lock after `count` failures in the window opened at `start` (0 below the threshold). */
function lockExpression(
  check: FailureCheck,
  count: RawBuilder<unknown>,
  start: RawBuilder<unknown>,
  at: RawBuilder<unknown>,
) {
  const below = sql`when ${count} < ${sql.lit(check.threshold)} then 0`;
  const steps = check.lockSteps;
  const last = steps[steps.length - 1] ?? null;
  if (last === null) return sql`case ${below} else ${start} + ${sql.lit(check.windowMs)} end`;
  const ladder = steps
    .slice(0, -1)
    .map(
      (lockMs, k) =>
        sql`when ${count} = ${sql.lit(check.threshold + k)} then ${at} + ${sql.lit(lockMs ?? 0)}`,
    );
  const middle = ladder.length === 0 ? sql`` : sql.join(ladder, sql` `);
  return sql`case ${below} ${middle} else ${at} + ${sql.lit(last)} end`;
}

/** The row a key's first failure writes: locked at once only when the threshold is 1. */
function firstRow(check: FailureCheck, now: number): { lockedUntil: number; expiresAt: number } {
  const windowEnd = now + check.windowMs;
  if (check.threshold > 1) return { lockedUntil: 0, expiresAt: windowEnd };
  const first = check.lockSteps[0] ?? null;
  const lockedUntil = first === null ? windowEnd : now + first;
  return { lockedUntil, expiresAt: Math.max(windowEnd, lockedUntil) };
}
