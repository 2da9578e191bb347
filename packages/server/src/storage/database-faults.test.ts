import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { SvcUnavailableError } from '../kernel/errors.js';
import { createTestDatabase, type TestDatabase } from '../test-support/databases.js';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy.js';
import { openDatabase, type DatabaseHandle } from './database.js';

/** Short limits, so that each fault below shows in well under a second. */
const TIMEOUTS = { connectMs: 300, statementMs: 300, idleInTransactionMs: 1_000 };

const one = async (handle: DatabaseHandle) =>
  (await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows[0]?.one;

/**
 * `one` where the database is expected to answer: a busy machine can take longer than the short
 * connect limit to open a fresh connection, which is itself a 503, so that is retried for a while.
 * Each test opens a connection this way before its fault, so that only the fault can fail it.
 */
const answers = async (handle: DatabaseHandle) => {
  const until = Date.now() + 5_000;
  for (;;) {
    try {
      return await one(handle);
    } catch (error) {
      if (!(error instanceof SvcUnavailableError) || Date.now() > until) throw error;
    }
  }
};

const skipReason = inject('postgresSkipReason');
const onPostgres = skipReason === '' ? describe : describe.skip;

onPostgres(`PostgreSQL faults${skipReason === '' ? '' : ` (skipped: ${skipReason})`}`, () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let admin: pg.Client;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    const target = new URL(testDb.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port));
    admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await proxy?.close();
    await testDb?.drop();
  });
  afterEach(async () => {
    proxy.heal();
    await handle?.close();
  });

  const open = () => {
    handle = openDatabase(
      { kind: 'postgres', connectionString: proxy.via(testDb.url), url: testDb.url },
      TIMEOUTS,
    );
    return handle;
  };

  it('a connection terminated while a transaction holds it fails that transaction with 503, and the pool goes on', async () => {
    const db = open();
    expect(await answers(db)).toBe(1);
    const failed = db.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      // The server ends the connection between two statements of the transaction: node-postgres emits
      // 'error' on a client that the pool has lent out, which unhandled would end this process.
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await sql`select 1`.execute(trx);
    });
    const error: unknown = await failed.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcUnavailableError);
    expect(error).toMatchObject({ status: 503, code: 'temporarily_unavailable' });
    expect(await answers(db)).toBe(1);
  });

  it('idle connections the server terminated are replaced', async () => {
    const db = open();
    await Promise.all([answers(db), answers(db), answers(db)]);
    await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [new URL(testDb.url).pathname.slice(1)],
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await answers(db)).toBe(1);
  });

  it('a statement past the statement timeout is ended by the server: 503, not a hang', async () => {
    const db = open();
    expect(await answers(db)).toBe(1);
    const error: unknown = await sql`select pg_sleep(30)`.execute(db.db).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcUnavailableError);
    expect((error as SvcUnavailableError).detail).toMatch(/^57014 /);
    expect(await answers(db)).toBe(1);
  });

  it('a server that answers nothing: the statement and new connections time out with 503, and all recovers', async () => {
    const db = open();
    expect(await answers(db)).toBe(1);
    proxy.freeze();
    const inUse = await one(db).catch((e: unknown) => e);
    expect(inUse).toBeInstanceOf(SvcUnavailableError);
    expect((inUse as SvcUnavailableError).detail).toMatch(/timeout/i);
    const fresh = await one(db).catch((e: unknown) => e);
    expect(fresh).toBeInstanceOf(SvcUnavailableError);
    expect((fresh as SvcUnavailableError).detail).toMatch(/timeout/i);
    proxy.heal();
    expect(await answers(db)).toBe(1);
  });

  it('a transaction that met the client timeout rolls back without waiting again, and is not applied later', async () => {
    const db = open();
    // A connection opened first (a busy machine can miss the short connect limit), so that the
    // transaction below starts on it and only the freeze can fail it.
    expect(await answers(db)).toBe(1);
    await sql`create table if not exists fault_probe (id integer primary key)`.execute(db.db);
    const failed = db.db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into fault_probe (id) values (1)`.execute(trx);
        proxy.freeze();
        await sql`insert into fault_probe (id) values (2)`.execute(trx);
      })
      .catch((e: unknown) => e);
    expect(await failed).toBeInstanceOf(SvcUnavailableError);
    proxy.heal();
    // The held statement reaches the server now; the transaction it belongs to never commits.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { rows } = await admin.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity where datname = $1 and state = 'idle in transaction'`,
      [new URL(testDb.url).pathname.slice(1)],
    );
    expect(Number(rows[0]?.n)).toBe(0);
    // Read without the proxy and the pool's short connect limit, which a busy machine can miss.
    const direct = new pg.Client({ connectionString: testDb.url });
    await direct.connect();
    try {
      expect((await direct.query('select id from fault_probe')).rows).toEqual([]);
    } finally {
      await direct.end();
    }
  });

  it('a database that went away answers 503 at once, and the pool reconnects when it is back', async () => {
    const db = open();
    expect(await answers(db)).toBe(1);
    proxy.drop();
    expect(await one(db).catch((e: unknown) => e)).toBeInstanceOf(SvcUnavailableError);
    proxy.heal();
    expect(await answers(db)).toBe(1);
  });

  it('a wrong password is reported as it is, not as an outage', async () => {
    const url = new URL(proxy.via(testDb.url));
    url.username = 'no_such_role';
    handle = openDatabase(
      { kind: 'postgres', connectionString: url.toString(), url: url.toString() },
      TIMEOUTS,
    );
    const error: unknown = await one(handle).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(SvcUnavailableError);
    expect((error as { code?: string }).code).toBe('28000');
  });
});

describe('SQLite faults', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-sqlite-faults-'));
  });
  afterAll(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a database another process keeps locked past the busy timeout answers 503', async () => {
    const filename = join(dir, 'svc.db');
    handle = openDatabase({ kind: 'sqlite', filename, url: `sqlite:${filename}` }, TIMEOUTS);
    await sql`create table probe (id integer primary key)`.execute(handle.db);
    const other = new BetterSqlite3(filename);
    other.prepare('begin immediate').run();
    try {
      const error: unknown = await sql`insert into probe (id) values (1)`.execute(handle.db).catch((e) => e);
      expect(error).toBeInstanceOf(SvcUnavailableError);
      expect((error as SvcUnavailableError).detail).toMatch(/^SQLITE_BUSY/);
    } finally {
      other.prepare('rollback').run();
      other.close();
    }
    await sql`insert into probe (id) values (1)`.execute(handle.db);
    expect((await sql<{ id: number }>`select id from probe`.execute(handle.db)).rows).toEqual([{ id: 1 }]);
  });
});
