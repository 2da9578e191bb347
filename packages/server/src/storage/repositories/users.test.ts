import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { UserRecord } from '../../directory/repository.js';
import { describeEachDatabase, useMigratedDatabase } from '../../test-support/databases.js';
import { insertUserRows } from '../../test-support/user-rows.js';
import type { Db } from '../database.js';
import { userRepository } from './users.js';

const T0 = Date.UTC(2026, 11, 1);

/** How many of this database's statements wait for a lock (PostgreSQL). */
async function lockWaits(db: Db): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The guard that keeps an active operator (docs/reference/organizations.md "Record updates"), on both
 * databases.
 */
describeEachDatabase('users: the last active operator', (kind) => {
  const database = useMigratedDatabase(kind);

  it('a demotion that waits for a concurrent one sees it, and refuses to take the last operator', async () => {
    const { db } = database;
    await insertUserRows(db, ['usr_op_a', 'usr_op_b'], T0);
    await db
      .updateTable('users')
      .set({ isOperator: 1 })
      .where('id', 'in', ['usr_op_a', 'usr_op_b'])
      .execute();
    const users = userRepository(db);
    let second: Promise<UserRecord | 'taken' | 'last_operator' | undefined> | undefined;
    await db.transaction().execute(async (tx) => {
      expect(await userRepository(tx).update('usr_op_a', { isOperator: false }, T0)).toMatchObject({
        isOperator: false,
      });
      second = users.update('usr_op_b', { isOperator: false }, T0);
      // PostgreSQL: the second demotion must be waiting on the first's locks before that one commits
      // (SQLite runs one transaction at a time, so the second one starts after this one anyway).
      if (kind === 'postgres') {
        for (let polls = 0; polls < 1000 && (await lockWaits(db)) === 0; polls += 1);
        expect(await lockWaits(db)).toBe(1);
      }
    });
    expect(await second).toBe('last_operator');
    expect(await users.findById('usr_op_b')).toMatchObject({ isOperator: true, active: true });
  });

  it('an inactive operator does not count; a user who is not an operator is never refused', async () => {
    const { db } = database;
    await insertUserRows(db, ['usr_op_c', 'usr_op_d', 'usr_plain'], T0);
    await db
      .updateTable('users')
      .set({ isOperator: 1 })
      .where('id', 'in', ['usr_op_c', 'usr_op_d'])
      .execute();
    const users = userRepository(db);
    expect(await users.update('usr_op_c', { active: false }, T0)).toMatchObject({ active: false });
    // usr_op_b (above) and usr_op_d are the active operators now.
    expect(await users.update('usr_op_d', { isOperator: false }, T0)).toMatchObject({ isOperator: false });
    expect(await users.update('usr_op_b', { active: false, displayName: 'Gone' }, T0)).toBe('last_operator');
    expect(await users.update('usr_plain', { active: false }, T0)).toMatchObject({ active: false });
    expect(await users.update('usr_op_c', { isOperator: false }, T0)).toMatchObject({ isOperator: false });
  });
});
