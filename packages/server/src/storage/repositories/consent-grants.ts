import type { Selectable } from 'kysely';
import type { ConsentGrantRecord, ConsentGrantStore } from '../../signin/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import type { ConsentGrantsTable } from '../schema.js';
import { parseStringList } from './json-columns.js';

function toRecord(row: Selectable<ConsentGrantsTable>): ConsentGrantRecord {
  return {
    id: row.id,
    userId: row.userId,
    clientId: row.clientId,
    scopes: parseStringList(row.scopesJson),
    grantedAt: row.grantedAt,
    updatedAt: row.updatedAt,
    revokedAt: row.revokedAt,
  };
}

/** Consent grants in `consent_grants`; a partial unique index keeps one active grant per user and client. */
export function consentGrantRepository(db: Db): ConsentGrantStore {
  return {
    async findActive(userId, clientId) {
      const row = await db
        .selectFrom('consentGrants')
        .selectAll()
        .where('userId', '=', userId)
        .where('clientId', '=', clientId)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async insertIfNoActive(record) {
      try {
        await db
          .insertInto('consentGrants')
          .values({
            id: record.id,
            userId: record.userId,
            clientId: record.clientId,
            scopesJson: JSON.stringify(record.scopes),
            grantedAt: record.grantedAt,
            updatedAt: record.updatedAt,
            revokedAt: record.revokedAt,
          })
          .execute();
        return true;
      } catch (error) {
        // The id is random: the only unique key that can collide is the active (user, client) pair.
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async updateScopes(id, previous, scopes, now) {
      const result = await db
        .updateTable('consentGrants')
        .set({ scopesJson: JSON.stringify(scopes), updatedAt: now })
        .where('id', '=', id)
        .where('revokedAt', 'is', null)
        // Written by this repository only, so the same list always serializes to the same text.
        .where('scopesJson', '=', JSON.stringify(previous))
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },

    async listActive(userId) {
      const rows = await db
        .selectFrom('consentGrants as g')
        .leftJoin('clients as c', 'c.clientId', 'g.clientId')
        .selectAll('g')
        .select('c.name as clientName')
        .where('g.userId', '=', userId)
        .where('g.revokedAt', 'is', null)
        .orderBy('g.updatedAt', 'desc')
        .orderBy('g.id', 'desc')
        .execute();
      // A grant outlives a deleted client registration; it is then shown under its client_id.
      return rows.map((row) => ({ ...toRecord(row), clientName: row.clientName ?? row.clientId }));
    },

    async revoke(userId, grantId, now) {
      const result = await db
        .updateTable('consentGrants')
        .set({ revokedAt: now, updatedAt: now })
        .where('id', '=', grantId)
        .where('userId', '=', userId)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },
  };
}
