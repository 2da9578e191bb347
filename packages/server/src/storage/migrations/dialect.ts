import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * True on SQLite: a migration rebuilds a table where PostgreSQL alters it, and a statement picks the one
 * dialect's spelling where the two differ.
 */
export function isSqlite<DB>(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * Rebuilds a SQLite table as SQLite's documented procedure describes: foreign keys off, then `rebuild`
 * (create, copy, drop, rename, indexes) and a foreign key check in one transaction. Kysely runs SQLite
 * migrations outside a transaction, so the pragma takes effect.
 */
export async function rebuildSqliteTable(
  db: Kysely<unknown>,
  table: string,
  rebuild: () => Promise<void>,
): Promise<void> {
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await sql`begin`.execute(db);
    try {
      await rebuild();
      const broken = await sql`pragma foreign_key_check`.execute(db);
      if (broken.rows.length > 0) throw new Error(`${table} rebuild left dangling foreign keys`);
      await sql`commit`.execute(db);
    } catch (error) {
      await sql`rollback`.execute(db);
      throw error;
    }
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
