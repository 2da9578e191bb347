import BetterSqlite3 from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './sqlite-statements.js';

describe('SQLite statement cache', () => {
  const sqlite = new BetterSqlite3(':memory:');
  let prepared: string[] = [];
  const original = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((sql: string) => {
    prepared.push(sql);
    return original(sql);
  }) as typeof sqlite.prepare;
  const cached = withStatementCache(sqlite);
  afterEach(() => {
    prepared = [];
  });
  afterAll(() => {
    cached.close();
  });

  it('prepares each SQL text once and the statement keeps working', () => {
    const first = cached.prepare('select ? + 1 as n');
    const again = cached.prepare('select ? + 1 as n');
    expect(again).toBe(first);
    expect(prepared).toEqual(['select ? + 1 as n']);
    expect(again.all([41])).toEqual([{ n: 42 }]);
  });

  it('drops the least recently used text past its bound, keeping the ones in use', () => {
    cached.prepare('select 0');
    for (let i = 1; i <= 1_000; i += 1) {
      cached.prepare(`select ${i}`);
      // "select 0" stays in use, so it is never the least recently used.
      cached.prepare('select 0');
    }
    prepared = [];
    cached.prepare('select 0');
    cached.prepare('select 1000');
    expect(prepared).toEqual([]);
    cached.prepare('select 1');
    expect(prepared).toEqual(['select 1']);
  });
});
