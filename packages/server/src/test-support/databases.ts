import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import type { DatabaseTarget } from '../config/resolve.js';
import { openDatabase, type DatabaseHandle, type Dialect } from '../storage/database.js';
import { postgresDatabaseUrl, withAdminClient, type TestDatabaseStart } from './template-databases.js';

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
    const dir = mkdtempSync(join(tmpdir(), 'svc-sqlite-'));
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
  const name = `svc_t_${randomBytes(6).toString('hex')}`;
  const template = start === 'empty' ? '' : ` TEMPLATE ${templates.postgres[start]}`;
  await withAdminClient(admin, (client) => client.query(`CREATE DATABASE ${name}${template}`));
  const connectionString = postgresDatabaseUrl(admin, name);
  return {
    target: { kind, connectionString, url: connectionString },
    url: connectionString,
    drop: () =>
      withAdminClient(admin, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/**
 * Runs a suite once on SQLite and once on PostgreSQL. Without PostgreSQL the second run is reported as
 * skipped with the reason (global setup already failed the run if SVC_REQUIRE_POSTGRES=1).
 */
export function describeEachDatabase(name: string, suite: (kind: Dialect) => void): void {
  describe(`${name} [sqlite]`, () => suite('sqlite'));
  const reason = inject('postgresSkipReason');
  if (reason === '') describe(`${name} [postgres]`, () => suite('postgres'));
  else describe.skip(`${name} [postgres] (skipped: ${reason})`, () => suite('postgres'));
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
