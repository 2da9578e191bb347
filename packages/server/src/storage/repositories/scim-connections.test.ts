import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ScimConnectionRecord, ScimConnectionRepository } from '../../scim/repository.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { insertOrganizationRows } from '../../test-support/user-rows.js';
import { openDatabase, type DatabaseHandle } from '../database.js';
import { scimConnectionRepository } from './scim-connections.js';

const T0 = Date.UTC(2026, 10, 1);

const CONNECTION: ScimConnectionRecord = {
  id: 'scim_1',
  organizationId: 'org_1',
  displayName: 'Entra ID',
  enabled: true,
  tokenHash: 'a'.repeat(64),
  grantBoundaryResourceId: null,
  owner: 'dashboard',
  createdAt: T0,
  updatedAt: T0 + 1,
};

/** The bearer look-up of SCIM connections: one query, the same on SQLite and PostgreSQL. */
describeEachDatabase('SCIM connection storage', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let repository: ScimConnectionRepository;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    repository = scimConnectionRepository(handle.db);
    await insertOrganizationRows(handle.db, ['org_1'], T0);
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it("finds a connection by its token hash with its organization's state, read with it", async () => {
    expect(await repository.insert(CONNECTION)).toBe(true);
    expect(await repository.findByTokenHash(CONNECTION.tokenHash)).toEqual({
      connection: CONNECTION,
      organizationActive: true,
    });
    await handle.db.updateTable('organizations').set({ active: 0 }).where('id', '=', 'org_1').execute();
    expect(await repository.findByTokenHash(CONNECTION.tokenHash)).toEqual({
      connection: CONNECTION,
      organizationActive: false,
    });
    expect(await repository.findByTokenHash('b'.repeat(64))).toBeUndefined();
  });
});
