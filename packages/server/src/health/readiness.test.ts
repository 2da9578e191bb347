import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { SvcUnavailableError } from '../kernel/errors.js';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../storage/database.js';
import { databaseProbe } from '../storage/readiness-probe.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test-support/databases.js';
import { checkReadiness } from './readiness.js';

describeEachDatabase('readiness', (kind) => {
  let testDb: TestDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    await testDb?.drop();
  });
  const open = async () => {
    testDb = await createTestDatabase(kind);
    handle = openDatabase(testDb.target);
    return handle;
  };

  it('is ready once every migration this node knows is applied, and not before', async () => {
    const db = await open();
    const ready = () => checkReadiness({ probe: databaseProbe(db.db), timeoutMs: 5_000 });
    expect(await ready()).toMatchObject({ ready: false, reason: 'migrations_pending' });
    await migrateToLatest(db.db);
    expect(await ready()).toEqual({ ready: true });
    await sql`delete from svc_migrations where name = (select max(name) from svc_migrations)`.execute(db.db);
    expect(await ready()).toMatchObject({ ready: false, reason: 'migrations_pending' });
  });
});

it('reports a database that does not answer, or not in time', async () => {
  const outage = new SvcUnavailableError(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
  expect(await checkReadiness({ probe: () => Promise.reject(outage), timeoutMs: 1_000 })).toMatchObject({
    ready: false,
    reason: 'database_unavailable',
    message: 'The database does not answer.',
  });
  expect(await checkReadiness({ probe: () => new Promise(() => undefined), timeoutMs: 10 })).toMatchObject({
    ready: false,
    reason: 'database_timeout',
  });
});
