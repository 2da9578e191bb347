import BetterSqlite3 from 'better-sqlite3';
import { CamelCasePlugin, Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from './database.js';
import { encodeCursor, fetchNewestFirst } from './paging.js';
import { auditEventsRepository } from './repositories/audit-events.js';
import type { Database } from './schema.js';

describe('keyset paging', () => {
  const sqlite = new BetterSqlite3(':memory:');
  const prepared: string[] = [];
  // Records the SQL Kysely prepares, so that the test can ask SQLite for the plan of the very statement.
  const recording = new Proxy(sqlite, {
    get(target, key) {
      if (key === 'prepare') {
        return (text: string) => {
          prepared.push(text);
          return target.prepare(text);
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: recording }),
    plugins: [new CamelCasePlugin()],
  });
  afterAll(() => db.destroy());

  it('seeks an index that leads with (time, id) to the cursor instead of walking it from the newest row', async () => {
    await migrateToLatest(db);
    const cursor = encodeCursor({ at: 1_000, id: 'usr_0f' });
    await fetchNewestFirst(
      db.selectFrom('users').selectAll(),
      'createdAt',
      { limit: 2, cursor },
      (row) => row.createdAt,
      (row) => row.id,
    );
    const page = prepared.findLast((text) => text.startsWith('select'));
    expect(page).toBeDefined();
    const plan = sqlite.prepare(`explain query plan ${page ?? ''}`).all(1_000, 'usr_0f', 3) as {
      detail: string;
    }[];
    expect(plan.map((step) => step.detail)).toEqual([
      expect.stringMatching(/^SEARCH users USING INDEX users_search_idx \(\(created_at,id\)<\(\?,\?\)\)/),
    ]);
  });

  it.each(['actor', 'organization', 'user', 'client', 'subject'] as const)(
    'seeks the audit index of %sId from the cursor, with a kind filter too',
    async (name) => {
      await migrateToLatest(db);
      const cursor = encodeCursor({ at: 1_000, id: 'aud_0f' });
      await auditEventsRepository(db).list(
        { [`${name}Id`]: 'x', kind: { exact: ['a.b'], prefixes: [] } },
        {
          limit: 2,
          cursor,
        },
      );
      const page = prepared.findLast((text) => text.startsWith('select'));
      const plan = sqlite.prepare(`explain query plan ${page ?? ''}`).all('a.b', 'x', 1_000, 'aud_0f', 3) as {
        detail: string;
      }[];
      expect(plan.map((step) => step.detail)).toEqual([
        `SEARCH audit_events USING INDEX audit_events_${name}_time_idx (${name}_id=? AND (occurred_at,id)<(?,?))`,
      ]);
    },
  );
});
