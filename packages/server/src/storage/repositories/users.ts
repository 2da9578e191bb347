import type { Selectable } from 'kysely';
import type { UserRecord, UserRepository } from '../../admin/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { UsersTable } from '../schema.js';

function toRecord(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    emailKey: row.emailKey,
    emailVerified: row.emailVerified === 1,
    passwordHash: row.passwordHash,
    isOperator: row.isOperator === 1,
    active: row.active === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Users in the `users` table; the email key column is unique. */
export function userRepository(db: Db): UserRepository {
  const findById = async (id: string): Promise<UserRecord | undefined> => {
    const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row === undefined ? undefined : toRecord(row);
  };

  return {
    async insertIfEmailFree(user) {
      try {
        await db
          .insertInto('users')
          .values({
            id: user.id,
            displayName: user.displayName,
            email: user.email,
            emailKey: user.emailKey,
            emailVerified: user.emailVerified ? 1 : 0,
            passwordHash: user.passwordHash,
            isOperator: user.isOperator ? 1 : 0,
            active: user.active ? 1 : 0,
            createdAt: user.createdAt,
            updatedAt: user.updatedAt,
          })
          .execute();
        return true;
      } catch (error) {
        // The id is random, so the only unique key that can collide is the email key.
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    findById,

    async findByEmailKey(emailKey) {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('emailKey', '=', emailKey)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async setOperator(id, now) {
      await db.updateTable('users').set({ isOperator: 1, updatedAt: now }).where('id', '=', id).execute();
      return findById(id);
    },

    list(page) {
      return fetchNewestFirst(
        db.selectFrom('users').selectAll(),
        'createdAt',
        page,
        (row) => row.createdAt,
        toRecord,
      );
    },
  };
}
