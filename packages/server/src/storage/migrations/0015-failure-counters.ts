import type { Kysely } from 'kysely';

/**
 * Failed checks of secrets (passwords, second factors, one-time codes), counted per subject across
 * requests and nodes (docs/reference/limits.md). One row per key (a rule name
 * and the SHA-256 of the subject): the window opened by its first failure, the failures in it, and the
 * lock they set (0 = none). Portable as 0001: epoch-ms `bigint` times.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('failure_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  // For the hourly cleanup of counters whose window and lock have passed.
  await db.schema
    .createIndex('failure_counters_expires_idx')
    .on('failure_counters')
    .column('expires_at')
    .execute();
}
