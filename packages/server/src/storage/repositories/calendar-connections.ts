import type { CalendarConnectionStatus, CalendarProviderType } from '@svc/contract';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type {
  CalendarConnectionRecord,
  CalendarConnectionRepository,
  CalendarTokensWrite,
} from '../../calendar/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { CalendarConnectionsTable, Database } from '../schema.js';
import { parseStringList } from './json-columns.js';

/** The columns of a revoked connection: its sealed tokens dropped, its version moved on. */
export function revokedConnection(now: number) {
  return (eb: ExpressionBuilder<Database, 'calendarConnections'>) => ({
    status: 'revoked',
    tokensSealed: null,
    offlineAccess: 0,
    version: eb('version', '+', 1),
    updatedAt: now,
    revokedAt: now,
  });
}

function toRecord(row: Selectable<CalendarConnectionsTable>): CalendarConnectionRecord {
  return {
    id: row.id,
    userId: row.userId,
    connectionId: row.connectionId,
    providerType: row.providerType as CalendarProviderType,
    accountSubject: row.accountSubject,
    accountIssuer: row.accountIssuer,
    accountEmail: row.accountEmail,
    scopes: parseStringList(row.scopesJson),
    tokensSealed: row.tokensSealed,
    offlineAccess: row.offlineAccess === 1,
    accessTokenExpiresAt: row.accessTokenExpiresAt === null ? null : Number(row.accessTokenExpiresAt),
    status: row.status as CalendarConnectionStatus,
    version: Number(row.version),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
    lastRefreshedAt: row.lastRefreshedAt === null ? null : Number(row.lastRefreshedAt),
    revokedAt: row.revokedAt === null ? null : Number(row.revokedAt),
  };
}

/** The columns of a tokens write. */
function tokenColumns(write: CalendarTokensWrite) {
  return {
    tokensSealed: write.tokensSealed,
    offlineAccess: write.offlineAccess ? 1 : 0,
    accessTokenExpiresAt: write.accessTokenExpiresAt,
    scopesJson: JSON.stringify(write.scopes),
  };
}

export function calendarConnectionRepository(db: Db): CalendarConnectionRepository {
  const byId = (id: string) => db.selectFrom('calendarConnections').selectAll().where('id', '=', id);
  return {
    async insert(record) {
      const { scopes, offlineAccess, ...rest } = record;
      try {
        await db
          .insertInto('calendarConnections')
          .values({ ...rest, scopesJson: JSON.stringify(scopes), offlineAccess: offlineAccess ? 1 : 0 })
          .execute();
        return true;
      } catch (error) {
        // The id is random: the key that collides is (user, connection, account).
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async findById(id) {
      const row = await byId(id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findByAccount(userId, connectionId, accountSubject) {
      const row = await db
        .selectFrom('calendarConnections')
        .selectAll()
        .where('userId', '=', userId)
        .where('connectionId', '=', connectionId)
        .where('accountSubject', '=', accountSubject)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async list(query) {
      let rows = db.selectFrom('calendarConnections').selectAll();
      if (query.userId !== undefined) rows = rows.where('userId', '=', query.userId);
      return fetchNewestFirst(rows, 'createdAt', query, (row) => Number(row.createdAt), toRecord);
    },

    async reconnect(id, write, now) {
      const row = await db
        .updateTable('calendarConnections')
        .set((eb) => ({
          ...tokenColumns(write),
          accountIssuer: write.accountIssuer,
          accountEmail: write.accountEmail,
          status: 'active',
          version: eb('version', '+', 1),
          updatedAt: now,
          revokedAt: null,
        }))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async storeRefreshed(id, expectedVersion, write, now) {
      const result = await db
        .updateTable('calendarConnections')
        .set({
          ...tokenColumns(write),
          status: 'active',
          version: expectedVersion + 1,
          updatedAt: now,
          lastRefreshedAt: now,
        })
        .where('id', '=', id)
        .where('version', '=', expectedVersion)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async markReauthorizationRequired(id, expectedVersion, now) {
      const result = await db
        .updateTable('calendarConnections')
        .set({ status: 'reauthorization_required', updatedAt: now })
        .where('id', '=', id)
        .where('version', '=', expectedVersion)
        .where('status', '=', 'active')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async revoke(id, now) {
      const row = await db
        .updateTable('calendarConnections')
        .set(revokedConnection(now))
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async delete(id) {
      const row = await db
        .deleteFrom('calendarConnections')
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
  };
}
