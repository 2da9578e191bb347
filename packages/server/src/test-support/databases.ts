import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { DatabaseTarget } from '../config/resolve.js';
import { openDatabase, type DatabaseHandle, type Dialect } from '../storage/database.js';
import { postgresDatabaseUrl, withAdminClient, type TestDatabaseStart } from './template-databases.js';
import { testTempRoot } from './test-temp.js';

export interface TestDatabase {
  readonly target: DatabaseTarget;
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database of the given kind that belongs to one test: empty, or a copy of the run's migrated
 * (and keyed) template (template-databases.ts), which costs a file copy instead of a migration.
 */
export async function createTestDatabase(
  kind: Dialect,
  start: TestDatabaseStart = 'empty',
): Promise<TestDatabase> {
  const templates = inject('templateDatabases');
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(testTempRoot(), 'svc-sqlite-'));
    const filename = join(dir, 'svc.db');
    if (start !== 'empty') copyFileSync(templates.sqlite[start], filename);
    const url = `sqlite:${filename}`;
    return {
      target: { kind, filename, url },
      url,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const admin = inject('postgresAdminUrl');
  if (admin === '' || templates.postgres === undefined) {
    throw new Error('PostgreSQL is not available in this run.');
  }
  const { prefix, strategy } = templates.postgres;
  const name = await takePostgresDatabase(
    admin,
    prefix,
    start === 'empty' ? undefined : templates.postgres.templates[start],
    strategy,
  );
  const connectionString = postgresDatabaseUrl(admin, name);
  return {
    target: { kind, connectionString, url: connectionString },
    url: connectionString,
    drop: async () => dropLater(admin, name),
  };
}

/** Per template: the database created ahead for the next test of this worker. */
const spares = new Map<string, Promise<string>>();

/**
 * A new database from `template` (template1 when undefined). The one created ahead is taken and the
 * next one started, so that CREATE DATABASE runs while a test runs instead of before it; what is left
 * when the worker ends is dropped at the end of the run with the rest of its prefix.
 */
function takePostgresDatabase(
  admin: string,
  prefix: string,
  template: string | undefined,
  strategy: string,
): Promise<string> {
  const create = async () => {
    const name = `${prefix}${randomBytes(6).toString('hex')}`;
    const from = template === undefined ? '' : ` TEMPLATE ${template}`;
    await withAdminClient(admin, (client) => client.query(`CREATE DATABASE ${name}${from}${strategy}`));
    return name;
  };
  const key = template ?? '';
  const spare = spares.get(key);
  const next = create();
  // A spare that failed fails the test that takes it.
  next.catch(() => undefined);
  spares.set(key, next);
  return spare ?? create();
}

/**
 * Drops a test's database without making the test wait. pg's pool.end() resolves before its sockets
 * close, and DROP … WITH (FORCE) would kill them noisily, so the drop waits a moment first; a drop that
 * fails leaves the database to the end of the run.
 */
function dropLater(admin: string, name: string): void {
  setTimeout(() => {
    withAdminClient(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(
      () => undefined,
    );
  }, 100);
}

/**
 * Runs a suite once on SQLite and once on PostgreSQL: for suites where the database is the point
 * (storage, the suite nearest to a repository, what only the database guarantees) and for the
 * PostgreSQL smoke set of end-to-end files (docs/reference/testing.md "Which suites run on which database").
 * Without PostgreSQL the second run is reported as skipped with the reason (global setup already failed the
 * run if SVC_REQUIRE_POSTGRES=1).
 */
export function describeEachDatabase(name: string, suite: (kind: Dialect) => void): void {
  describe(`${name} [sqlite]`, () => suite('sqlite'));
  const reason = inject('postgresSkipReason');
  if (reason === '') describe(`${name} [postgres]`, () => suite('postgres'));
  else describe.skip(`${name} [postgres] (skipped: ${reason})`, () => suite('postgres'));
}

/**
 * Runs a suite of behaviour above the repositories on SQLite, where it behaves as on PostgreSQL: the
 * suites of describeEachDatabase cover PostgreSQL underneath it. SVC_TEST_ALL_DATABASES=1 runs it on
 * both databases too.
 */
export function describeAboveStorage(name: string, suite: (kind: Dialect) => void): void {
  if (process.env.SVC_TEST_ALL_DATABASES === '1') describeEachDatabase(name, suite);
  else describe(`${name} [sqlite]`, () => suite('sqlite'));
}

/**
 * A migrated database of `kind` shared by the tests of the enclosing suite: created and opened before
 * them, closed and dropped after them. Read `db` inside tests and hooks, not while the suite is declared.
 */
export function useMigratedDatabase(kind: Dialect): { readonly db: DatabaseHandle['db'] } {
  let testDb: TestDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
  });
  afterAll(async () => {
    await handle?.close();
    await testDb?.drop();
  });
  return {
    get db() {
      if (handle === undefined) throw new Error('The test database is open only while the suite runs.');
      return handle.db;
    },
  };
}
