import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  type PostgresPool,
  type PostgresPoolClient,
} from 'kysely';
import pg from 'pg';
import { DEFAULT_DATABASE_TIMEOUTS, type DatabaseTarget, type DatabaseTimeouts } from '../config/resolve.js';
import { attachDirectSqlite, SvcCamelCasePlugin } from './direct-sqlite.js';
import { preparedName } from './fixed-query.js';
import { migrationProvider } from './migrations/index.js';
import { withStatementCache } from './sqlite-statements.js';
import type { Database, Db } from './schema.js';
import { asUnavailable } from './unavailable.js';
import { SvcUnavailableError } from '../kernel/errors.js';

export type { Db, Tx } from './schema.js';
export type Dialect = DatabaseTarget['kind'];

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;
/**
 * The client-side wait for an answer exceeds the server's statement_timeout by this much, so that a
 * live server ends a slow statement itself (the connection stays usable) and only a server that answers
 * nothing at all (frozen, or a network that drops packets) meets the client's timeout.
 */
const CLIENT_WAIT_MARGIN_MS = 500;

/**
 * Opens the database named by the resolved configuration (SQLite in WAL mode, or a PostgreSQL pool).
 * An outage (refused, reset, shut down, past a timeout) surfaces as SvcUnavailableError (unavailable.ts).
 */
export function openDatabase(
  target: DatabaseTarget,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
): DatabaseHandle {
  const camelCase = new SvcCamelCasePlugin();
  const plugins = [camelCase];
  if (target.kind === 'sqlite') {
    if (target.filename !== ':memory:') mkdirSync(dirname(target.filename), { recursive: true });
    const sqlite = new BetterSqlite3(target.filename);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`busy_timeout = ${timeouts.statementMs}`);
    // A small page cache: a commit that split B-tree pages scans the whole cache (SQLite renumbers the
    // split pages through a page past the end of the file, which the commit then truncates), so a large
    // cache costs every such write. Reads come from the memory map instead
    // (docs/reference/storage.md "The token path").
    sqlite.pragma('cache_size = -1024');
    sqlite.pragma('mmap_size = 1073741824');
    const statements = withStatementCache(sqlite);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }), plugins });
    attachDirectSqlite(db, sqlite, statements, camelCase);
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: target.connectionString,
    max: 10,
    // Fail fast: opening a connection or waiting for a free one of the pool.
    connectionTimeoutMillis: timeouts.connectMs,
    // On the server: a slow statement, and a transaction that a stalled or killed node left open (it
    // would hold its row locks).
    statement_timeout: timeouts.statementMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
    // On the client: a frozen server cannot run its own timeouts.
    query_timeout: timeouts.statementMs + CLIENT_WAIT_MARGIN_MS,
    keepAlive: true,
    // Epoch-millisecond bigints and counts fit a JS number exactly; read them as numbers, not strings.
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID || oid === NUMERIC_OID
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format),
    } as pg.CustomTypesConfig,
  });
  // An idle connection that the server drops (restart, failover, DROP DATABASE) emits 'error' on the
  // pool; unhandled it would crash the process. The pool discards the connection and opens a new one.
  // A connection in use has no pool listener: PooledConnection listens on it (see there).
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparing(pool) }), plugins });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/**
 * The pool as Kysely sees it: each pooled client keeps one PooledConnection (so that Kysely's
 * per-client connection cache still hits), and a failure to get a connection is an outage.
 */
function preparing(pool: pg.Pool): PostgresPool {
  const connections = new WeakMap<pg.PoolClient, PooledConnection>();
  return {
    connect: async () => {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        // No connection, whatever the reason the driver gives, except the server's own refusal with a
        // code (a wrong password, an unknown database): that one is a configuration error to report.
        throw asUnavailable(error, !(error instanceof pg.DatabaseError));
      }
      let connection = connections.get(client);
      if (connection === undefined) {
        connection = new PooledConnection(client);
        connections.set(client, connection);
      }
      return connection;
    },
    end: () => pool.end(),
  };
}

/**
 * One pooled client as Kysely uses it. It sends the fixed queries' texts as named statements
 * (fixed-query.ts `preparedName`), which node-postgres parses once per connection.
 *
 * A connection that broke while checked out (the server terminated it, the socket reset, a query met the
 * client-side timeout and the protocol state is lost) is remembered as lost: its 'error' event is
 * handled here (node-postgres emits it with no listener while the pool lends the client out, which would
 * end the process), later statements on it fail at once instead of waiting (a transaction's ROLLBACK
 * after a timeout), and its release tells the pool to discard it, so the pool opens a fresh one.
 */
class PooledConnection implements PostgresPoolClient {
  readonly #client: pg.PoolClient;
  #lost: Error | undefined;

  constructor(client: pg.PoolClient) {
    this.#client = client;
    client.on('error', (error) => {
      this.#lost ??= error;
    });
  }

  // Kysely's other overload passes a cursor (streaming), which Svc does not use.
  query = ((sql: string, parameters: readonly unknown[]) => {
    if (this.#lost !== undefined) return Promise.reject(asUnavailable(this.#lost, true));
    const name = preparedName(sql);
    const values = [...parameters];
    const sent =
      name === undefined ? this.#client.query(sql, values) : this.#client.query({ name, text: sql, values });
    return sent.catch((error: unknown) => {
      // Without a server answer (no SQLSTATE), the connection itself failed; a TypeError is a bad value.
      const lost = !(error instanceof pg.DatabaseError) && !(error instanceof TypeError);
      if (lost) this.#lost ??= error instanceof Error ? error : new Error(String(error));
      throw asUnavailable(error, lost);
    });
  }) as unknown as PostgresPoolClient['query'];

  release(): void {
    this.#client.release(this.#lost);
  }
}

/**
 * Limits while migrating PostgreSQL: a migration may build an index on a big table, and a node that
 * starts beside another waits on the migration lock for as long as the other one migrates.
 */
const MIGRATION_STATEMENT_MS = 6 * 60 * 60 * 1000;

/**
 * Applies every pending migration to the database of `handle` (opened on `target`); returns the names
 * applied. On PostgreSQL this runs on a connection of its own without the serving pool's statement
 * limits; SQLite (possibly in memory, so only reachable through `handle`) waits on its busy timeout.
 */
export async function migrateDatabase(
  target: DatabaseTarget,
  handle: DatabaseHandle,
  timeouts: DatabaseTimeouts = DEFAULT_DATABASE_TIMEOUTS,
): Promise<string[]> {
  if (target.kind === 'sqlite') return migrateToLatest(handle.db);
  const migrating = openDatabase(target, {
    connectMs: timeouts.connectMs,
    statementMs: MIGRATION_STATEMENT_MS,
    idleInTransactionMs: MIGRATION_STATEMENT_MS,
  });
  try {
    return await migrateToLatest(migrating.db);
  } finally {
    await migrating.close();
  }
}

/** Applies every pending migration; returns the names applied in this call. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    migrationTableName: 'svc_migrations',
    migrationLockTableName: 'svc_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  // No migration failed when the database did not answer.
  if (error instanceof SvcUnavailableError) throw error;
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when a database error is a unique-constraint violation (SQLite and PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
