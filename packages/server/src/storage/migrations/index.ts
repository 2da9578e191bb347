import type { Migration, MigrationProvider } from 'kysely';
import * as spine from './0001-spine.js';

/** Migrations are listed in code (not read from a folder) so that the built package and tests agree. */
const migrations: Record<string, Migration> = {
  '0001-spine': spine,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
