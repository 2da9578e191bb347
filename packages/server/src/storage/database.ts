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
  type Transaction,
} from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config/resolve.js';
import { attachDirectSqlite, SvcCamelCasePlugin } from './direct-sqlite.js';
import { preparedName } from './fixed-query.js';
import { migrationProvider } from './migrations/index.js';
import { withStatementCache } from './sqlite-statements.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
export type Dialect = DatabaseTarget['kind'];

export interface DatabaseHandle {
  readonly db: Db;
  readonly dialect: Dialect;
  close(): Promise<void>;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Opens the database named by the resolved configuration (SQLite in WAL mode, or a PostgreSQL pool). */
export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  const camelCase = new SvcCamelCasePlugin();
  const plugins = [camelCase];
  if (target.kind === 'sqlite') {
    if (target.filename !== ':memory:') mkdirSync(dirname(target.filename), { recursive: true });
    const sqlite = new BetterSqlite3(target.filename);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // A small page cache: a commit that split B-tree pages scans the whole cache (SQLite renumbers the
    // split pages through a page past the end of the file, which the commit then truncates), so a large
    // cache costs every such write. Reads come from the memory map instead (docs/decisions.md).
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
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: preparing(pool) }), plugins });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}

/**
 * The pool as Kysely sees it, sending the fixed queries' texts as named statements (fixed-query.ts
 * `preparedName`), which node-postgres parses once per connection; other queries go through unnamed.
 * Each pooled client keeps one wrapper, so that Kysely's per-client connection cache still hits.
 */
function preparing(pool: pg.Pool): PostgresPool {
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const query = (sql: string, parameters: readonly unknown[]) => {
      const name = preparedName(sql);
      const values = [...parameters];
      return name === undefined ? client.query(sql, values) : client.query({ name, text: sql, values });
    };
    // Kysely's other overload passes a cursor (streaming), which Svc does not use.
    return { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
  };
  return {
    connect: async () => {
      const client = await pool.connect();
      let wrapper = wrappers.get(client);
      if (wrapper === undefined) {
        wrapper = wrap(client);
        wrappers.set(client, wrapper);
      }
      return wrapper;
    },
    end: () => pool.end(),
  };
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
