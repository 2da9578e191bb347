import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';
import { LruMap } from '../kernel/lru-map.js';

/** How many distinct statements stay prepared (the queries are parameterized: a few hundred exist). */
const MAX_STATEMENTS = 1_000;

/**
 * The SQLite handle Kysely uses, preparing each distinct SQL text once: Kysely's SQLite driver calls
 * `prepare` on every query, and compiling the statement again is a measurable share of a short request.
 * Least recently used statements are dropped past MAX_STATEMENTS (multi-row inserts and `in` lists of
 * every length each have a text of their own).
 */
export function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const statements = new LruMap<string, BetterSqlite3.Statement>(MAX_STATEMENTS);
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
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
