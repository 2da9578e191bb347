import { sql } from 'kysely';
import type { DatabaseState } from '../health/readiness.js';
import { SvcUnavailableError } from '../kernel/errors.js';
import type { Db } from './database.js';
import { MIGRATION_NAMES } from './migrations/index.js';

/**
 * The readiness probe's one query: the newest migration applied. Names sort in the order they apply, so
 * the database is current when its newest is this node's newest or a later one (a newer node migrated).
 * A migration table that cannot be read (never migrated) means migrations are pending.
 */
export function databaseProbe(db: Db): () => Promise<DatabaseState> {
  const latest = MIGRATION_NAMES.at(-1) ?? '';
  return async () => {
    try {
      const { rows } = await sql<{
        name: string | null;
      }>`select max(name) as name from svc_migrations`.execute(db);
      return { migrationsCurrent: (rows[0]?.name ?? '') >= latest };
    } catch (error) {
      if (error instanceof SvcUnavailableError) throw error;
      return { migrationsCurrent: false };
    }
  };
}
