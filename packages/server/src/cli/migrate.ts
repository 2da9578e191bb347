import { optionsFromEnv } from '../config/env.js';
import { resolveConfig } from '../config/resolve.js';
import { migrateDatabase, openDatabase } from '../storage/database.js';
import { describeDatabase } from './output.js';

/** `svc migrate`: applies pending migrations only (no keys, no seed). */
export async function migrateCommand(): Promise<void> {
  const config = resolveConfig(optionsFromEnv(process.env));
  console.log(`Migrating ${describeDatabase(config)} …`);
  const database = openDatabase(config.database, config.databaseTimeouts);
  try {
    const applied = await migrateDatabase(config.database, database, config.databaseTimeouts);
    console.log(
      applied.length === 0
        ? 'Database is up to date.'
        : `Applied ${applied.length} migration(s): ${applied.join(', ')}`,
    );
  } finally {
    await database.close();
  }
}
