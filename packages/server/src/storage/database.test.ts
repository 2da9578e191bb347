import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase, createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { MIGRATION_NAMES } from './migrations/index.js';
import { isUniqueViolation, migrateToLatest, openDatabase, type DatabaseHandle } from './database.js';

describeEachDatabase('database', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind);
    handle = openDatabase(testDb.target);
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('applies the migrations once and reports nothing pending afterwards', async () => {
    expect(await migrateToLatest(handle.db)).toEqual(MIGRATION_NAMES);
    expect(MIGRATION_NAMES[0]).toBe('0001-spine');
    expect(await migrateToLatest(handle.db)).toEqual([]);
  });

  it('reads epoch-millisecond bigints back as numbers and detects unique violations', async () => {
    await migrateToLatest(handle.db);
    const at = 1_790_000_000_123;
    const row = {
      id: 'org_1',
      name: 'Acme',
      slug: 'acme',
      primaryDomain: null,
      active: 1,
      createdAt: at,
      updatedAt: at,
    };
    await handle.db.insertInto('organizations').values(row).execute();
    const stored = await handle.db
      .selectFrom('organizations')
      .selectAll()
      .where('id', '=', 'org_1')
      .executeTakeFirstOrThrow();
    expect(stored).toEqual(row);
    const duplicate = await handle.db
      .insertInto('organizations')
      .values({ ...row, id: 'org_2' })
      .execute()
      .catch((error: unknown) => error);
    expect(isUniqueViolation(duplicate)).toBe(true);
  });
});
