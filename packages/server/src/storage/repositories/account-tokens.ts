import type { AccountRepositories, AccountTokenRecord, AccountTokenStore } from '../../account/repository.js';
import type { Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import { singleUseRows } from '../single-use.js';

type TokenTable = 'passwordResetTokens' | 'emailVerificationTokens';

interface TokenRow {
  tokenHash: string;
  userId: string;
  emailKey?: string | null;
  createdAt: number;
  expiresAt: number;
  consumedAt: number | null;
}

function toRecord(row: TokenRow): AccountTokenRecord {
  return {
    tokenHash: row.tokenHash,
    userId: row.userId,
    emailKey: row.emailKey ?? null,
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    consumedAt: row.consumedAt === null ? null : Number(row.consumedAt),
  };
}

function passwordResetTokens(db: Db): AccountTokenStore {
  return tokenStore(db, 'passwordResetTokens', (record) =>
    db
      .insertInto('passwordResetTokens')
      .values({
        tokenHash: record.tokenHash,
        userId: record.userId,
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
        consumedAt: null,
      })
      .execute(),
  );
}

function emailVerificationTokens(db: Db): AccountTokenStore {
  return tokenStore(db, 'emailVerificationTokens', (record) =>
    db
      .insertInto('emailVerificationTokens')
      .values({
        tokenHash: record.tokenHash,
        userId: record.userId,
        emailKey: record.emailKey ?? '',
        createdAt: record.createdAt,
        expiresAt: record.expiresAt,
        consumedAt: null,
      })
      .execute(),
  );
}

function tokenStore(
  db: Db,
  table: TokenTable,
  insert: (record: Omit<AccountTokenRecord, 'consumedAt'>) => Promise<unknown>,
): AccountTokenStore {
  const tokens = singleUseRows(db, table, 'tokenHash');
  return {
    async insert(record) {
      await insert(record);
    },
    async invalidateForUser(userId, now) {
      const result = await db
        .updateTable(table)
        .set({ consumedAt: now })
        .where('userId', '=', userId)
        .where('consumedAt', 'is', null)
        .executeTakeFirst();
      // PostgreSQL reports counts as bigint.
      return updatedRows(result);
    },
    async consume(tokenHash, now) {
      const row = await tokens.consume(tokenHash, now);
      return row === undefined ? undefined : toRecord(row);
    },
    async findLive(tokenHash, now) {
      const row = await tokens.findActive(tokenHash, now);
      return row === undefined ? undefined : toRecord(row);
    },
  };
}

/** Password reset and email verification tokens, and the two user updates they make. */
export function accountRepositories(db: Db): AccountRepositories {
  return {
    passwordResetTokens: passwordResetTokens(db),
    emailVerificationTokens: emailVerificationTokens(db),
    users: {
      async setPasswordHash(userId, passwordHash, now) {
        const result = await db
          .updateTable('users')
          .set({ passwordHash, updatedAt: now })
          .where('id', '=', userId)
          .where('active', '=', 1)
          .executeTakeFirst();
        return updatedRows(result) === 1;
      },
      async markEmailVerified(userId, emailKey, now) {
        const result = await db
          .updateTable('users')
          .set({ emailVerified: 1, updatedAt: now })
          .where('id', '=', userId)
          .where('emailKey', '=', emailKey)
          .where('active', '=', 1)
          .executeTakeFirst();
        return updatedRows(result) === 1;
      },
    },
  };
}
