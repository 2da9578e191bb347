import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { LruMap } from '../kernel/lru-map.js';
import { asUnavailable } from './unavailable.js';

/** How many distinct statements stay prepared (the queries are parameterized: a few hundred exist). */
const MAX_STATEMENTS = 1_000;

/** The SQLite handle Kysely and the direct path prepare through. */
export interface CachedStatements extends SqliteDatabase {
  prepare(sql: string): GuardedStatement;
}

/**
 * The SQLite handle Kysely uses, preparing each distinct SQL text once: Kysely's SQLite driver calls
 * `prepare` on every query, and compiling the statement again is a measurable share of a short request.
 * Least recently used statements are dropped past MAX_STATEMENTS (multi-row inserts and `in` lists of
 * every length each have a text of their own).
 */
export function withStatementCache(sqlite: BetterSqlite3.Database): CachedStatements {
  const statements = new LruMap<string, GuardedStatement>(MAX_STATEMENTS);
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = new GuardedStatement(guard(() => sqlite.prepare(sql)));
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

/**
 * A prepared statement whose failures from a database that cannot serve now (busy past the busy timeout,
 * an I/O error, a full disk) surface as SvcUnavailableError, as PostgreSQL's outages do.
 */
export class GuardedStatement implements SqliteStatement {
  readonly #statement: BetterSqlite3.Statement;

  constructor(statement: BetterSqlite3.Statement) {
    this.#statement = statement;
  }

  get reader(): boolean {
    return this.#statement.reader;
  }

  columns(): BetterSqlite3.ColumnDefinition[] {
    return this.#statement.columns();
  }

  all(parameters: readonly unknown[]): unknown[] {
    return guard(() => this.#statement.all(parameters));
  }

  run(parameters: readonly unknown[]): { changes: number | bigint; lastInsertRowid: number | bigint } {
    return guard(() => this.#statement.run(parameters));
  }

  iterate(parameters: readonly unknown[]): IterableIterator<unknown> {
    return guard(() => this.#statement.iterate(parameters));
  }
}

/** Runs one call into SQLite, turning an outage into SvcUnavailableError. */
export function guard<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    throw asUnavailable(error);
  }
}
