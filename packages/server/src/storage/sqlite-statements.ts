import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many distinct statements stay prepared (the queries are parameterized: a few hundred exist). */
const MAX_STATEMENTS = 1_000;

/**
 * The SQLite handle Kysely uses, preparing each distinct SQL text once: Kysely's SQLite driver calls
 * `prepare` on every query, and compiling the statement again is a measurable share of a short request.
 * Least recently used statements are dropped past MAX_STATEMENTS (multi-row inserts and `in` lists of
 * every length each have a text of their own).
 */
export function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        if (statements.size >= MAX_STATEMENTS) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      } else {
        // Map order is insertion order: re-inserting makes it the most recently used.
        statements.delete(sql);
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
