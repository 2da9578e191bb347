import { afterEach, beforeEach } from 'vitest';
import { openDatabase, type DatabaseHandle, type Dialect } from '../storage/database.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

/**
 * A fresh migrated database of `kind` for each test of the enclosing suite (useMigratedDatabase shares
 * one), for storage tests that write fixed ids or count whole tables: created and opened before each
 * test, closed and dropped after it.
 */
export function useFreshMigratedDatabase(kind: Dialect): { readonly db: DatabaseHandle['db'] } {
  let testDb: TestDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
  });
  afterEach(async () => {
    await handle?.close();
    await testDb?.drop();
    handle = undefined;
  });
  return {
    get db() {
      if (handle === undefined) throw new Error('The test database is open only while a test runs.');
      return handle.db;
    },
  };
}
