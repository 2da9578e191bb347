import type { Kysely } from 'kysely';

/**
 * Rate-limit counters, shared by every node (docs/reference/storage.md: what holds across nodes lives in the
 * database). One row per (key, window start); interval gates use window start 0. Keys hold SHA-256 hashes of
 * identifiers and IP addresses, never the values. Portable as 0001: epoch-ms `bigint` times.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_counters')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('rate_limit_counters_pk', ['key', 'window_start'])
    .execute();
  // For the hourly cleanup of expired counters.
  await db.schema
    .createIndex('rate_limit_counters_expires_idx')
    .on('rate_limit_counters')
    .column('expires_at')
    .execute();
}
