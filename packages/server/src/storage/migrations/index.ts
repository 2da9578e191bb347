import type { Migration, MigrationProvider } from 'kysely';
import * as spine from './0001-spine.js';
import * as oauthCore from './0002-oauth-core.js';

/** Migrations are listed in code (not read from a folder) so that the built package and tests agree. */
const migrations: Record<string, Migration> = {
  '0001-spine': spine,
  '0002-oauth-core': oauthCore,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
