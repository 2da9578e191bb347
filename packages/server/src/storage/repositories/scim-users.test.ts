import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ScimUserRecord, ScimUserRepository } from '../../scim/repository.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import {
  insertOrganizationRows,
  insertScimConnectionRow,
  insertUserRows,
} from '../../test-support/user-rows.js';
import { openDatabase, type DatabaseHandle } from '../database.js';
import { scimUserRepository } from './scim-users.js';

const T0 = Date.UTC(2026, 10, 1);
const PAGE = { startIndex: 1, count: 10 };

function user(userId: string, userName: string): ScimUserRecord {
  return {
    connectionId: 'scim_1',
    userId,
    userName,
    externalId: null,
    active: true,
    attributes: {},
    createdUser: true,
    createdAt: T0,
    updatedAt: T0,
  };
}

/** The `emails.value` filter (by email key) on every address of a user, on SQLite and PostgreSQL alike. */
describeEachDatabase('SCIM user storage', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let users: ScimUserRepository;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    users = scimUserRepository(handle.db);
    await insertOrganizationRows(handle.db, ['org_1'], T0);
    await insertScimConnectionRow(handle.db, 'scim_1', 'org_1', T0);
    await insertUserRows(handle.db, ['usr_1', 'usr_2'], T0);
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  const found = async (value: string, type?: string) =>
    (
      await users.list(
        'scim_1',
        type === undefined
          ? { attribute: 'emails.value', value }
          : { attribute: 'emails.value', value, type },
        PAGE,
      )
    ).resources.map((record) => record.userId);

  it('finds a user by any of its addresses, by type when asked, and follows a replace', async () => {
    const ann = user('usr_1', 'ann');
    await users.insert(ann, [
      { key: 'ANN@ACME.TEST', type: 'work' },
      { key: 'ANN@HOME.TEST', type: 'home' },
    ]);
    await users.insert(user('usr_2', 'bob'), [{ key: 'BOB@ACME.TEST', type: '' }]);

    expect(await found('ANN@HOME.TEST')).toEqual(['usr_1']);
    expect(await found('ANN@ACME.TEST')).toEqual(['usr_1']);
    expect(await found('ANN@ACME.TEST', 'work')).toEqual(['usr_1']);
    expect(await found('ANN@HOME.TEST', 'work')).toEqual([]);
    expect(await found('BOB@ACME.TEST')).toEqual(['usr_2']);

    await users.replace({ ...ann, updatedAt: T0 + 1 }, [{ key: 'ANN@NEW.TEST', type: 'work' }]);
    expect(await found('ANN@HOME.TEST')).toEqual([]);
    expect(await found('ANN@NEW.TEST', 'work')).toEqual(['usr_1']);
  });

  it('writes no address of an insert the unique keys refuse, and drops them with their user', async () => {
    await users.insert(user('usr_1', 'ann'), [{ key: 'ANN@ACME.TEST', type: 'work' }]);
    expect(await users.insert(user('usr_2', 'ANN'), [{ key: 'BOB@ACME.TEST', type: '' }])).toBe('taken');
    expect(await found('BOB@ACME.TEST')).toEqual([]);

    expect(await users.delete('scim_1', 'usr_1')).toBe(true);
    expect(await found('ANN@ACME.TEST')).toEqual([]);
    expect(await handle.db.selectFrom('scimUserEmails').selectAll().execute()).toEqual([]);
  });
});
