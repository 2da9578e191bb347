import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { emailLookupKey, requireEmailKey } from '../directory/email-key.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test-support/databases.js';
import { insertOrganizationRows, insertScimConnectionRow } from '../test-support/user-rows.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './database.js';
import { MIGRATION_NAMES, migrationProvider } from './migrations/index.js';
import { userRepository } from './repositories/users.js';

const AT = 1_790_000_000_000;
const MIGRATION = '0043-ascii-exact-email-keys';
/** The migration an earlier release left the database at. */
const BEFORE = MIGRATION_NAMES[MIGRATION_NAMES.indexOf(MIGRATION) - 1] ?? '';

/**
 * Migration 0043 (docs/decisions/admin-email-identity-ascii-exact.md) over rows an earlier release wrote, whose
 * keys are the address upper-cased: the keys of addresses that are not ASCII are recomputed, an address
 * the new rule refuses keeps a key no address can reach, and two rows that now share a key stay apart.
 */
describeEachDatabase('migration 0043: ASCII-exact email keys', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind);
    handle = openDatabase(testDb.target);
    const migrated = await new Migrator({
      db: handle.db,
      provider: migrationProvider,
      migrationTableName: 'svc_migrations',
      migrationLockTableName: 'svc_migrations_lock',
    }).migrateTo(BEFORE);
    expect(migrated.error).toBeUndefined();
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  /** Users as the earlier release wrote them: the key is the address upper-cased; created in this order. */
  const insertEarlierUsers = async (emails: Record<string, string>) => {
    let createdAt = AT;
    for (const [id, email] of Object.entries(emails)) {
      createdAt += 1000;
      await handle.db
        .insertInto('users')
        .values({
          id,
          displayName: id,
          email,
          emailKey: email.toUpperCase(),
          emailVerified: 1,
          passwordHash: null,
          isOperator: 0,
          active: 1,
          createdAt,
          updatedAt: createdAt,
        })
        .execute();
    }
  };
  const keys = async (table: 'users' | 'invitations') =>
    Object.fromEntries(
      (await handle.db.selectFrom(table).select(['id', 'emailKey']).execute()).map((row) => [
        row.id,
        row.emailKey,
      ]),
    );

  it('recomputes user keys: a look-alike lets go of the key it held, a refused address keeps one of its own', async () => {
    await insertEarlierUsers({
      usr_dotless: 'ceo@gıthub.test',
      usr_local: 'çeo@example.com',
      usr_plain: 'Plain@Example.com',
      usr_idn: 'ceo@Bücher.example',
    });
    await handle.db
      .insertInto('emailVerificationTokens')
      .values({
        tokenHash: 'h1',
        userId: 'usr_dotless',
        emailKey: 'CEO@GITHUB.TEST',
        createdAt: AT,
        expiresAt: AT + 1,
      })
      .execute();

    expect(await migrateToLatest(handle.db)).toContain(MIGRATION);
    expect(await keys('users')).toEqual({
      usr_dotless: 'CEO@XN--GTHUB-N4A.TEST',
      usr_local: 'çEO@EXAMPLE.COM',
      usr_plain: 'PLAIN@EXAMPLE.COM',
      usr_idn: 'CEO@XN--BCHER-KVA.EXAMPLE',
    });
    const token = await handle.db
      .selectFrom('emailVerificationTokens')
      .select('emailKey')
      .executeTakeFirstOrThrow();
    expect(token.emailKey).toBe('CEO@XN--GTHUB-N4A.TEST');

    // The runtime finds each address by its new key; ceo@github.test is nobody's any more.
    const users = userRepository(handle.db);
    expect((await users.findByEmailKey(requireEmailKey('ceo@gıthub.test')))?.id).toBe('usr_dotless');
    expect((await users.findByEmailKey(requireEmailKey('CEO@xn--bcher-kva.example')))?.id).toBe('usr_idn');
    expect(await users.findByEmailKey(requireEmailKey('ceo@github.test'))).toBeUndefined();
    expect(emailLookupKey('çeo@example.com')).toBeUndefined();
    await insertEarlierUsers({ usr_real: 'ceo@github.test' });
  });

  it('never merges or fails on two accounts that now share a key: the older one takes it', async () => {
    await insertEarlierUsers({
      usr_ascii: 'ann@xn--bcher-kva.example',
      usr_unicode: 'ann@bücher.example',
      usr_fullwidth: 'bob@ｂücher.example',
      usr_later: 'bob@bücher.example',
      // The older account wants the key the later look-alike holds until it lets go of it.
      usr_wants: 'cei@ｅxample.com',
      usr_holds: 'ceı@example.com',
    });
    await migrateToLatest(handle.db);
    expect(await keys('users')).toEqual({
      usr_ascii: 'ANN@XN--BCHER-KVA.EXAMPLE',
      usr_unicode: 'ANN@BüCHER.EXAMPLE',
      usr_fullwidth: 'BOB@XN--BCHER-KVA.EXAMPLE',
      usr_later: 'BOB@BüCHER.EXAMPLE',
      usr_wants: 'CEI@EXAMPLE.COM',
      usr_holds: 'CEı@EXAMPLE.COM',
    });
  });

  it('recomputes invitation keys and the SCIM emails.value rows of resources that are not ASCII', async () => {
    await insertOrganizationRows(handle.db, ['org_1'], AT);
    await insertEarlierUsers({ usr_1: 'dana@example.com', usr_2: 'eve@example.com' });
    for (const [id, email] of [
      ['inv_dotless', 'ceo@gıthub.test'],
      ['inv_local', 'çeo@example.com'],
      ['inv_plain', 'Dana@Example.com'],
    ] as const) {
      await handle.db
        .insertInto('invitations')
        .values({
          id,
          organizationId: 'org_1',
          email,
          emailKey: email.toUpperCase(),
          role: 'member',
          clientId: null,
          redirectUri: null,
          customFieldsJson: '{}',
          status: 'pending',
          tokenHash: `hash-${id}`,
          expiresAt: AT + 1,
          createdAt: AT,
        })
        .execute();
    }
    await insertScimConnectionRow(handle.db, 'scim_1', 'org_1', AT);
    const unicode = {
      displayName: 'Dåna',
      emails: [
        { value: 'dana@example.com', type: 'Work' },
        { value: 'dana@gıthub.test', type: 'home' },
        { value: 'dåna@example.com' },
      ],
    };
    const ascii = { emails: [{ value: 'eve@example.com', type: 'work' }] };
    for (const [userId, resource] of [
      ['usr_1', unicode],
      ['usr_2', ascii],
    ] as const) {
      await sql`insert into scim_users (connection_id, user_id, user_name, user_name_key, external_id, active,
          resource_json, created_user, created_at, updated_at)
        values ('scim_1', ${userId}, ${userId}, ${userId.toUpperCase()}, null, 1, ${JSON.stringify(resource)}, 1,
          ${AT}, ${AT})`.execute(handle.db);
      for (const { value, type } of resource.emails as { value: string; type?: string }[]) {
        await handle.db
          .insertInto('scimUserEmails')
          .values({
            connectionId: 'scim_1',
            userId,
            emailKey: value.toUpperCase(),
            typeKey: type?.toLowerCase() ?? '',
          })
          .execute();
      }
    }

    await migrateToLatest(handle.db);
    expect(await keys('invitations')).toEqual({
      inv_dotless: 'CEO@XN--GTHUB-N4A.TEST',
      inv_local: 'çEO@EXAMPLE.COM',
      inv_plain: 'DANA@EXAMPLE.COM',
    });
    const rows = await handle.db
      .selectFrom('scimUserEmails')
      .select(['userId', 'emailKey', 'typeKey'])
      .orderBy('userId')
      .orderBy('emailKey')
      .execute();
    expect(rows).toEqual([
      { userId: 'usr_1', emailKey: 'DANA@EXAMPLE.COM', typeKey: 'work' },
      { userId: 'usr_1', emailKey: 'DANA@XN--GTHUB-N4A.TEST', typeKey: 'home' },
      { userId: 'usr_1', emailKey: 'DåNA@EXAMPLE.COM', typeKey: '' },
      { userId: 'usr_2', emailKey: 'EVE@EXAMPLE.COM', typeKey: 'work' },
    ]);
  });
});
