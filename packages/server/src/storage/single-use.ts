import type { ExpressionBuilder, Selectable } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

/** The tables whose rows are used once: each has `consumed_at` (null until used) and `expires_at`. */
export type SingleUseTable = {
  [T in keyof Database]: Database[T] extends { consumedAt: number | null; expiresAt: number } ? T : never;
}[keyof Database];

/** The single-use tables that also count attempts against a limit (`attempts`). */
export type AttemptTable = {
  [T in SingleUseTable]: 'attempts' extends keyof Database[T] ? T : never;
}[SingleUseTable];

/** The columns a single-use row is found by: the SHA-256 hash of its secret, unique in its table. */
type KeyName = 'tokenHash' | 'challengeHash' | 'codeHash';

/** The column of table `T` that names its rows. */
export type KeyColumn<T extends SingleUseTable> = Extract<keyof Database[T], KeyName>;

/** A row of a single-use table, as read. */
export type SingleUseRow<T extends SingleUseTable> = Selectable<Database[T]>;

/**
 * The rows of one single-use table, each named by its key. A row is active while it is neither consumed
 * nor expired. Consuming and counting are each one conditional UPDATE, whose condition the database
 * checks on the row it changes: of concurrent consumers exactly one gets the row, and concurrent
 * attempts never count past the limit (on SQLite, which runs writes one at a time, and on PostgreSQL,
 * which re-checks the condition on the latest row version after waiting for a concurrent writer).
 */
export interface SingleUseRows<T extends SingleUseTable> {
  /** The row if it is active at `now`. */
  findActive(key: string, now: number): Promise<SingleUseRow<T> | undefined>;
  /** Marks the row consumed at `now` if it is active, and returns it; undefined to every other caller. */
  consume(key: string, now: number): Promise<SingleUseRow<T> | undefined>;
}

/** The rows of a single-use table that also counts attempts. */
export interface AttemptLimitedRows<T extends AttemptTable> extends SingleUseRows<T> {
  /**
   * Counts one attempt if the row is active and has had fewer than `maxAttempts`, and returns the row as
   * counted; undefined when the row is not active or the limit is reached.
   */
  countAttempt(key: string, now: number, maxAttempts: number): Promise<SingleUseRow<T> | undefined>;
}

// Kysely resolves no column of a table given as a type parameter, so the statements are built on the
// union of the single-use tables (every column used here is one of each) and their rows typed back as
// the caller's table.

/** The rule, written once: the row named `value` in column `key`, neither consumed nor expired at `now`. */
function isActive(key: KeyName, value: string, now: number) {
  return (eb: ExpressionBuilder<Database, SingleUseTable>) =>
    eb.and([eb(key, '=', value), eb('consumedAt', 'is', null), eb('expiresAt', '>', now)]);
}

/** The rows of single-use `table` (which may be a transaction's), named by `key`. */
export function singleUseRows<T extends SingleUseTable>(
  db: Db,
  table: T,
  key: KeyColumn<T>,
): SingleUseRows<T> {
  const anyTable: SingleUseTable = table;
  return {
    async findActive(value, now) {
      const row = await db
        .selectFrom(anyTable)
        .selectAll()
        .where(isActive(key, value, now))
        .executeTakeFirst();
      return row as SingleUseRow<T> | undefined;
    },
    async consume(value, now) {
      // UPDATE … RETURNING (SQLite ≥ 3.35 and PostgreSQL): the check and the write are one statement.
      const row = await db
        .updateTable(anyTable)
        .set({ consumedAt: now })
        .where(isActive(key, value, now))
        .returningAll()
        .executeTakeFirst();
      return row as SingleUseRow<T> | undefined;
    },
  };
}

/** The rows of single-use `table` that counts attempts, named by `key`. */
export function attemptLimitedRows<T extends AttemptTable>(
  db: Db,
  table: T,
  key: KeyColumn<T>,
): AttemptLimitedRows<T> {
  const anyTable: AttemptTable = table;
  return {
    ...singleUseRows(db, table, key),
    async countAttempt(value, now, maxAttempts) {
      // The increment and the limit check are one statement, so concurrent guesses cannot pass the limit.
      const row = await db
        .updateTable(anyTable)
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where(isActive(key, value, now))
        .where('attempts', '<', maxAttempts)
        .returningAll()
        .executeTakeFirst();
      return row as SingleUseRow<T> | undefined;
    },
  };
}
