import { Migrator, sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase, createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { sha256Hex } from '../kernel/crypto.js';
import {
  insertOrganizationRows,
  insertScimConnectionRow,
  insertUserRows,
} from '../test-support/user-rows.js';
import { refreshTokenKey } from '../oauth/tokens/refresh-token-value.js';
import { MIGRATION_NAMES, migrationProvider } from './migrations/index.js';
import { clientRepository } from './repositories/clients.js';
import { scimUserRepository } from './repositories/scim-users.js';
import { tokenStore } from './repositories/token-store.js';
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

  /** The error a statement fails with (undefined when it succeeds). */
  const refused = (statement: { execute(): Promise<unknown> }) =>
    statement.execute().then(
      () => undefined,
      (error: unknown) => error,
    );

  /** Applies the migrations up to `name` only, as an older release left the database. */
  const migrateTo = (name: string) =>
    new Migrator({
      db: handle.db,
      provider: migrationProvider,
      migrationTableName: 'svc_migrations',
      migrationLockTableName: 'svc_migrations_lock',
    }).migrateTo(name);

  /** A user `usr_1` with one token session `ses_1`, written as a release before 0014 would. */
  const sessionRow = (at: number) => ({
    id: 'ses_1',
    userId: 'usr_1',
    clientId: 'web',
    organizationId: null,
    grantedScopesJson: '["openid"]',
    resource: null,
    amrJson: '["pwd"]',
    authTime: at,
    userAgent: 'agent',
    ipAddress: '192.0.2.1',
    createdAt: at,
    lastSeenAt: at,
    idleExpiresAt: at + 60_000,
    absoluteExpiresAt: at + 120_000,
    revokedAt: null,
    revokedReason: null,
  });
  const insertUserAndSession = async (at: number) => {
    await handle.db
      .insertInto('users')
      .values({
        id: 'usr_1',
        displayName: 'Ada',
        emailVerified: 0,
        isOperator: 0,
        active: 1,
        createdAt: at,
        updatedAt: at,
      })
      .execute();
    await handle.db.insertInto('sessions').values(sessionRow(at)).execute();
  };

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
    const duplicate = await refused(handle.db.insertInto('organizations').values({ ...row, id: 'org_2' }));
    expect(isUniqueViolation(duplicate)).toBe(true);
  });

  it('keeps users and their memberships when 0010 makes the email optional, and the key stays unique', async () => {
    expect((await migrateTo('0009-invitations')).error).toBeUndefined();
    const at = 1_790_000_000_000;
    const user = {
      id: 'usr_1',
      displayName: 'Ada',
      email: 'ada@example.com',
      emailKey: 'ADA@EXAMPLE.COM',
      emailVerified: 1,
      passwordHash: 'hash',
      isOperator: 0,
      active: 1,
      createdAt: at,
      updatedAt: at,
    };
    await handle.db.insertInto('users').values(user).execute();
    const organization = { id: 'org_1', name: 'Acme', slug: 'acme', primaryDomain: null, active: 1 };
    await handle.db
      .insertInto('organizations')
      .values({ ...organization, createdAt: at, updatedAt: at })
      .execute();
    const membership = { id: 'mem_1', organizationId: 'org_1', userId: 'usr_1', role: 'owner', active: 1 };
    await handle.db
      .insertInto('memberships')
      .values({ ...membership, createdAt: at, updatedAt: at })
      .execute();

    expect(await migrateToLatest(handle.db)).toEqual(
      MIGRATION_NAMES.slice(MIGRATION_NAMES.indexOf('0010-hosted-passwordless-and-phone-accounts')),
    );
    expect(await handle.db.selectFrom('users').selectAll().executeTakeFirstOrThrow()).toMatchObject(user);
    expect(await handle.db.selectFrom('memberships').select('userId').execute()).toEqual([
      { userId: 'usr_1' },
    ]);
    const phoneOnly = { ...user, email: null, emailKey: null, phoneE164: '+15555550100' };
    await handle.db
      .insertInto('users')
      .values({ ...phoneOnly, id: 'usr_2' })
      .execute();
    await handle.db
      .insertInto('users')
      .values({ ...phoneOnly, id: 'usr_3', phoneE164: null })
      .execute();
    const duplicate = await refused(handle.db.insertInto('users').values({ ...user, id: 'usr_4' }));
    expect(isUniqueViolation(duplicate)).toBe(true);
    // Foreign keys still point at the rebuilt table.
    const orphan = await refused(
      handle.db
        .insertInto('memberships')
        .values({ ...membership, id: 'mem_2', userId: 'usr_missing', createdAt: at, updatedAt: at }),
    );
    expect(orphan).toBeInstanceOf(Error);
  });

  it('keeps refresh tokens when 0013 lets them name their rows, and finds opaque ones by their hash', async () => {
    expect((await migrateTo('0012-device-authorizations')).error).toBeUndefined();
    const at = 1_790_000_000_000;
    await insertUserAndSession(at);
    const oldToken = 'an-opaque-token-from-before-0013';
    const oldRow = {
      id: 'rft_1',
      sessionId: 'ses_1',
      tokenHash: sha256Hex(oldToken),
      createdAt: at,
      expiresAt: at + 30_000,
      consumedAt: null,
      revokedAt: null,
    };
    await handle.db.insertInto('refreshTokens').values(oldRow).execute();

    expect(await migrateToLatest(handle.db)).toContain('0013-refresh-token-selectors');
    expect(await handle.db.selectFrom('refreshTokens').selectAll().execute()).toEqual([
      { ...oldRow, tokenFormat: 1 },
    ]);
    const store = tokenStore(handle.db);
    expect(await store.findRefreshToken(refreshTokenKey(oldToken))).toMatchObject({ token: oldRow });

    // A row a node of the previous release writes during a rolling upgrade (no format) is an opaque one.
    const lateToken = 'an-opaque-token-written-after-0013';
    const lateRow = { ...oldRow, id: 'rft_late', tokenHash: sha256Hex(lateToken) };
    await handle.db.insertInto('refreshTokens').values(lateRow).execute();
    expect(await store.findRefreshToken(refreshTokenKey(lateToken))).toMatchObject({ token: lateRow });
    const duplicateOpaque = await refused(
      handle.db.insertInto('refreshTokens').values({ ...lateRow, id: 'rft_late2' }),
    );
    expect(isUniqueViolation(duplicateOpaque)).toBe(true);

    // Rows that name themselves are found by id, never by hash alone, and their hash is no unique key.
    const newRow = { ...oldRow, id: 'rft_2', tokenHash: sha256Hex('rft_2.secret'), tokenFormat: 2 };
    await handle.db.insertInto('refreshTokens').values(newRow).execute();
    await handle.db
      .insertInto('refreshTokens')
      .values({ ...newRow, id: 'rft_3' })
      .execute();
    expect(await store.findRefreshToken(refreshTokenKey('rft_2.secret'))).toMatchObject({
      token: { ...oldRow, id: 'rft_2', tokenHash: newRow.tokenHash },
    });
    expect(await store.findRefreshToken({ id: null, tokenHash: newRow.tokenHash })).toBeUndefined();
    // Foreign keys still hold on the rebuilt table.
    const orphan = await refused(
      handle.db.insertInto('refreshTokens').values({ ...newRow, id: 'rft_4', sessionId: 'ses_missing' }),
    );
    expect(orphan).toBeInstanceOf(Error);
  });

  it('keeps sessions and refresh tokens when 0014 stores them in id order, with their keys and indexes', async () => {
    expect((await migrateTo('0013-refresh-token-selectors')).error).toBeUndefined();
    const at = 1_790_000_000_000;
    await insertUserAndSession(at);
    const opaqueToken = 'an-opaque-token-from-before-0013';
    const tokens = [
      {
        id: 'rft_1',
        sessionId: 'ses_1',
        tokenHash: sha256Hex(opaqueToken),
        createdAt: at,
        expiresAt: at + 30_000,
        consumedAt: at + 1,
        revokedAt: null,
        tokenFormat: 1,
      },
      {
        id: 'rft_2',
        sessionId: 'ses_1',
        tokenHash: sha256Hex('rft_2.secret'),
        createdAt: at + 1,
        expiresAt: at + 30_000,
        consumedAt: null,
        revokedAt: null,
        tokenFormat: 2,
      },
    ];
    await handle.db.insertInto('refreshTokens').values(tokens).execute();

    expect(await migrateToLatest(handle.db)).toContain('0014-token-sessions-in-id-order');
    expect(await handle.db.selectFrom('sessions').selectAll().execute()).toEqual([sessionRow(at)]);
    expect(await handle.db.selectFrom('refreshTokens').selectAll().orderBy('id').execute()).toEqual(tokens);
    expect(await indexesOf('sessions')).toEqual(['sessions_user_idx']);
    expect(await indexesOf('refresh_tokens')).toEqual([
      'refresh_tokens_opaque_hash_idx',
      'refresh_tokens_session_idx',
    ]);
    if (kind === 'sqlite') {
      const tables = await sql<{ name: string; wr: number }>`select name, wr from pragma_table_list
        where name in ('sessions', 'refresh_tokens') order by name`.execute(handle.db);
      expect(tables.rows).toEqual([
        { name: 'refresh_tokens', wr: 1 },
        { name: 'sessions', wr: 1 },
      ]);
    }

    const store = tokenStore(handle.db);
    expect(await store.findRefreshToken(refreshTokenKey('rft_2.secret'))).toMatchObject({
      token: { id: 'rft_2', sessionId: 'ses_1' },
    });
    expect(await store.findRefreshToken(refreshTokenKey(opaqueToken))).toMatchObject({
      token: { id: 'rft_1' },
    });
    // Keys, uniqueness and foreign keys hold on the rebuilt tables.
    const duplicateSession = await refused(handle.db.insertInto('sessions').values(sessionRow(at)));
    expect(isUniqueViolation(duplicateSession)).toBe(true);
    const duplicateOpaque = await refused(
      handle.db.insertInto('refreshTokens').values({ ...tokens[0]!, id: 'rft_3' }),
    );
    expect(isUniqueViolation(duplicateOpaque)).toBe(true);
    const orphanToken = await refused(
      handle.db.insertInto('refreshTokens').values({ ...tokens[1]!, id: 'rft_4', sessionId: 'ses_missing' }),
    );
    expect(orphanToken).toBeInstanceOf(Error);
    expect(isUniqueViolation(orphanToken)).toBe(false);
    const orphanSession = await refused(
      handle.db.insertInto('sessions').values({ ...sessionRow(at), id: 'ses_2', userId: 'usr_missing' }),
    );
    expect(orphanSession).toBeInstanceOf(Error);
    expect(isUniqueViolation(orphanSession)).toBe(false);
  });

  it('gives the clients of an earlier release no post-logout redirect URIs when 0016 adds them', async () => {
    await migrateTo('0014-token-sessions-in-id-order');
    // As a node of the previous release writes a client: without the column.
    await sql`insert into clients (id, client_id, name, audience, redirect_uris_json, is_first_party,
        allowed_scopes_json, allowed_resources_json, token_endpoint_auth_method, client_secret_hash,
        allow_device_authorization, allow_client_credentials, active, created_at, updated_at)
      values ('cli_1', 'web', 'Web', 'https://api.example', '["https://app.example/cb"]', 1, '["openid"]',
        '[]', 'none', null, 0, 0, 1, 1, 1)`.execute(handle.db);
    await migrateToLatest(handle.db);
    expect(await clientRepository(handle.db).findByClientId('web')).toMatchObject({
      redirectUris: ['https://app.example/cb'],
      postLogoutRedirectUris: [],
    });
  });

  it('fills the address table of the SCIM users provisioned before 0031, from their stored resources', async () => {
    expect((await migrateTo('0030-scim-mappings')).error).toBeUndefined();
    const at = 1_790_000_000_000;
    await insertOrganizationRows(handle.db, ['org_1'], at);
    await insertScimConnectionRow(handle.db, 'scim_1', 'org_1', at);
    // More users than two pages of the backfill, each with one address.
    const many = Array.from({ length: 250 }, (_, index) => `usr_p${String(index).padStart(3, '0')}`);
    await insertUserRows(handle.db, ['usr_1', 'usr_2', ...many], at);
    const resource = {
      emails: [
        { value: 'ann@acme.test', type: 'Work', primary: true },
        { value: ' ann@home.test', type: 'home' },
        { value: 'ANN@acme.test', type: 'work' },
        { type: 'other' },
        { value: `${'x'.repeat(400)}@acme.test` },
      ],
    };
    /** SCIM users of `scim_1` as the earlier release writes them, `email_key` included. */
    const insertEarlierScimUsers = (users: readonly (readonly [string, string | null, string])[]) =>
      sql`
        insert into scim_users (connection_id, user_id, user_name, user_name_key, external_id, email_key,
          active, resource_json, created_user, created_at, updated_at)
        values ${sql.join(
          users.map(
            ([userId, emailKey, resourceJson]) =>
              sql`('scim_1', ${userId}, ${userId}, ${userId.toUpperCase()}, null, ${emailKey}, 1, ${resourceJson}, 1, ${at}, ${at})`,
          ),
        )}
      `.execute(handle.db);
    await insertEarlierScimUsers([
      ['usr_1', 'ANN@ACME.TEST', JSON.stringify(resource)],
      ['usr_2', null, '{}'],
      ...many.map((id) => [id, null, JSON.stringify({ emails: [{ value: `${id}@acme.test` }] })] as const),
    ]);

    expect(await migrateToLatest(handle.db)).toContain('0031-scim-user-emails');
    const rows = await handle.db
      .selectFrom('scimUserEmails')
      .select(['userId', 'emailKey', 'typeKey'])
      .orderBy('userId')
      .orderBy('emailKey')
      .execute();
    expect(rows).toEqual([
      { userId: 'usr_1', emailKey: 'ANN@ACME.TEST', typeKey: 'work' },
      { userId: 'usr_1', emailKey: 'ANN@HOME.TEST', typeKey: 'home' },
      ...many.map((id) => ({ userId: id, emailKey: `${id.toUpperCase()}@ACME.TEST`, typeKey: '' })),
    ]);
    const listed = await scimUserRepository(handle.db).list(
      'scim_1',
      { attribute: 'emails.value', value: 'ANN@HOME.TEST' },
      { startIndex: 1, count: 10 },
    );
    expect(listed.resources.map((record) => record.userId)).toEqual(['usr_1']);

    // A node of the earlier release still provisions users during the upgrade.
    await insertUserRows(handle.db, ['usr_3'], at);
    await insertEarlierScimUsers([['usr_3', 'C@ACME.TEST', '{}']]);
    expect(await scimUserRepository(handle.db).find('scim_1', 'usr_3')).toMatchObject({ userName: 'usr_3' });
  });

  it('keeps the registrations stored before 0034 and 0035 dynamic and used, and operator clients as they were', async () => {
    await migrateTo('0033-dynamic-client-registration');
    await sql`insert into clients (id, client_id, name, audience, redirect_uris_json, post_logout_redirect_uris_json,
        is_first_party, allowed_scopes_json, allowed_resources_json, token_endpoint_auth_method, client_secret_hash,
        allow_device_authorization, allow_client_credentials, active, created_at, updated_at, registration_json)
      values ('cli_1', 'dcr_1', 'App', 'https://api.example', '["https://app.example/cb"]', '[]', 0, '[]', '[]',
        'none', null, 0, 0, 1, 1700, 1700, '{"clientUri":null}'),
      ('cli_2', 'web', 'Web', 'https://api.example', '[]', '[]', 1, '[]', '[]', 'none', null, 0, 0, 1, 1700, 1700,
        null)`.execute(handle.db);
    await migrateToLatest(handle.db);
    const clients = clientRepository(handle.db);
    expect((await clients.findByClientId('dcr_1'))?.registration).toMatchObject({
      method: 'dynamic',
      firstUsedAt: 1700,
    });
    expect((await clients.findByClientId('web'))?.registration).toBeNull();
    expect((await clients.list({ limit: 5, registration: 'dynamic' })).data.map((c) => c.clientId)).toEqual([
      'dcr_1',
    ]);
    // Counted as used: housekeeping leaves what an operator already had.
    expect(await clients.deleteUnused(Number.MAX_SAFE_INTEGER)).toEqual([]);
  });

  it('0045 replaces users_created_idx with users_search_idx and orders memberships by organization', async () => {
    await migrateToLatest(handle.db);
    const users = await indexesOf('users');
    expect(users).toContain('users_search_idx');
    expect(users).not.toContain('users_created_idx');
    expect(await indexesOf('memberships')).toContain('memberships_org_created_idx');
  });

  /** The names of the indexes on `table` besides its primary key's, sorted. */
  const indexesOf = async (table: string): Promise<string[]> => {
    const { rows } =
      kind === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master
            where type = 'index' and tbl_name = ${table} and sql is not null order by name`.execute(handle.db)
        : await sql<{ name: string }>`select indexname as name from pg_indexes
            where tablename = ${table} and indexname <> ${`${table}_pkey`} order by indexname`.execute(
            handle.db,
          );
    return rows.map((row) => row.name);
  };
});
