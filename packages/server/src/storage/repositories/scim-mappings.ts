import type { Selectable } from 'kysely';
import type { ScimMappingRecord, ScimMappingRepository } from '../../scim-mappings/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { ScimMappingsTable } from '../schema.js';
import { flag } from './partial-updates.js';

function toRecord(row: Selectable<ScimMappingsTable>): ScimMappingRecord {
  return {
    id: row.id,
    connectionId: row.connectionId,
    displayName: row.displayName,
    groupDisplayName: row.groupDisplayName,
    groupExternalId: row.groupExternalId,
    roleId: row.roleId,
    resourceId: row.resourceId,
    enabled: row.enabled === 1,
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
  };
}

/** SCIM group mapping rules in `scim_mappings`. */
export function scimMappingRepository(db: Db): ScimMappingRepository {
  return {
    async insert(record) {
      await db
        .insertInto('scimMappings')
        .values({ ...record, enabled: flag(record.enabled) ?? 0 })
        .execute();
    },

    async findById(id) {
      const row = await db.selectFrom('scimMappings').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    listForConnection(connectionId, query) {
      return fetchNewestFirst(
        db.selectFrom('scimMappings').selectAll().where('connectionId', '=', connectionId),
        'createdAt',
        query,
        (row) => Number(row.createdAt),
        toRecord,
      );
    },

    async enabledForConnection(connectionId) {
      const rows = await db
        .selectFrom('scimMappings')
        .selectAll()
        .where('connectionId', '=', connectionId)
        .where('enabled', '=', 1)
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    async update(id, changes, now) {
      const row = await db
        .updateTable('scimMappings')
        .set({
          ...changes,
          enabled: flag(changes.enabled),
          updatedAt: now,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async delete(id) {
      const result = await db.deleteFrom('scimMappings').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
  };
}
