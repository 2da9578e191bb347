import { afterEach, beforeEach, expect, it } from 'vitest';
import type {
  OidcIdentityRecord,
  OidcIdentityRepository,
} from '../../federation/oidc/identity-repository.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { insertUserRows } from '../../test-support/user-rows.js';
import { insertConnectionRow } from '../../test-support/federation/connections.js';
import { openDatabase, type DatabaseHandle } from '../database.js';
import { oidcIdentityRepository } from './oidc-identities.js';

const T0 = Date.UTC(2026, 10, 1);

function link(overrides: Partial<OidcIdentityRecord> = {}): OidcIdentityRecord {
  return {
    id: 'oid_1',
    connectionId: 'oidc_1',
    subject: 'sub-1',
    userId: 'usr_1',
    email: 'ann@example.com',
    emailVerified: true,
    createdAt: T0,
    lastUsedAt: T0,
    ...overrides,
  };
}

/** The storage contract of linked provider identities (migration 0019), the same on both databases. */
describeEachDatabase('OIDC identity storage', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let repository: OidcIdentityRepository;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    repository = oidcIdentityRepository(handle.db);
    const db = handle.db;
    await insertUserRows(db, ['usr_1', 'usr_2'], T0);
    await insertConnectionRow(db, 'oidc_1');
    await insertConnectionRow(db, 'oidc_2', 'GitHub');
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('reads back a link as inserted, by connection and subject', async () => {
    const unverified = link({
      id: 'oid_2',
      subject: 'sub-2',
      userId: 'usr_2',
      email: null,
      emailVerified: false,
    });
    expect(await repository.insert(link())).toBe(true);
    expect(await repository.insert(unverified)).toBe(true);
    expect(await repository.find('oidc_1', 'sub-1')).toEqual(link());
    expect(await repository.find('oidc_1', 'sub-2')).toEqual(unverified);
    // The subject is the provider's: the same one at another connection is another identity.
    expect(await repository.find('oidc_2', 'sub-1')).toBeUndefined();
  });

  it('links one (connection, subject) pair once', async () => {
    expect(await repository.insert(link())).toBe(true);
    expect(await repository.insert(link({ id: 'oid_2', userId: 'usr_2' }))).toBe(false);
    expect((await repository.find('oidc_1', 'sub-1'))?.userId).toBe('usr_1');
    expect(await repository.insert(link({ id: 'oid_3', connectionId: 'oidc_2' }))).toBe(true);
  });

  it("lists a user's links oldest first with their connections, touches and deletes only the user's own", async () => {
    await repository.insert(link({ id: 'oid_b', connectionId: 'oidc_2', createdAt: T0 + 5 }));
    await repository.insert(link({ id: 'oid_a', createdAt: T0 + 1 }));
    await repository.insert(link({ id: 'oid_c', subject: 'other', userId: 'usr_2' }));
    expect(await repository.listForUser('usr_1')).toEqual([
      {
        ...link({ id: 'oid_a', createdAt: T0 + 1 }),
        connection: { displayName: 'oidc_1', providerType: 'Custom' },
      },
      {
        ...link({ id: 'oid_b', connectionId: 'oidc_2', createdAt: T0 + 5 }),
        connection: { displayName: 'oidc_2', providerType: 'GitHub' },
      },
    ]);
    await repository.touch('oid_a', { email: 'new@example.com', emailVerified: false }, T0 + 100);
    expect(await repository.find('oidc_1', 'sub-1')).toMatchObject({
      email: 'new@example.com',
      emailVerified: false,
      lastUsedAt: T0 + 100,
      createdAt: T0 + 1,
    });
    expect(await repository.delete('usr_2', 'oid_a')).toBe(false);
    expect(await repository.delete('usr_1', 'oid_a')).toBe(true);
    expect((await repository.listForUser('usr_1')).map((l) => l.id)).toEqual(['oid_b']);
  });

  it('forgets the links of a deleted connection or user', async () => {
    await repository.insert(link());
    await repository.insert(link({ id: 'oid_2', connectionId: 'oidc_2', userId: 'usr_2' }));
    await handle.db.deleteFrom('oidcConnections').where('id', '=', 'oidc_1').execute();
    await handle.db.deleteFrom('users').where('id', '=', 'usr_2').execute();
    expect(await repository.find('oidc_1', 'sub-1')).toBeUndefined();
    expect(await repository.listForUser('usr_2')).toEqual([]);
  });
});
