import type { Selectable } from 'kysely';
import type { BrowserSessionRecord, BrowserSessionStore } from '../../signin/repository.js';
import type { Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import type { BrowserSessionsTable } from '../schema.js';
import { parseStringList } from './json-columns.js';

function toRecord(row: Selectable<BrowserSessionsTable>): BrowserSessionRecord {
  return {
    id: row.id,
    tokenHash: row.tokenHash,
    userId: row.userId,
    amr: parseStringList(row.amrJson),
    authTime: row.authTime,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
  };
}

/** Issuer (browser) sessions behind the hosted pages' session cookie, by token hash. */
export function browserSessionRepository(db: Db): BrowserSessionStore {
  return {
    async insert(record) {
      await db
        .insertInto('browserSessions')
        .values({
          id: record.id,
          tokenHash: record.tokenHash,
          userId: record.userId,
          amrJson: JSON.stringify(record.amr),
          authTime: record.authTime,
          createdAt: record.createdAt,
          expiresAt: record.expiresAt,
          revokedAt: record.revokedAt,
        })
        .execute();
    },

    async findActive(tokenHash, now) {
      const row = await db
        .selectFrom('browserSessions')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async revoke(tokenHash, now) {
      await db
        .updateTable('browserSessions')
        .set({ revokedAt: now })
        .where('tokenHash', '=', tokenHash)
        .where('revokedAt', 'is', null)
        .execute();
    },

    async revokeForUser(userId, now) {
      const result = await db
        .updateTable('browserSessions')
        .set({ revokedAt: now })
        .where('userId', '=', userId)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return updatedRows(result);
    },
  };
}
