import type { Selectable } from 'kysely';
import type { ScimSyncEventRecord, ScimSyncEventRepository } from '../../scim/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { ScimSyncEventsTable } from '../schema.js';

function toRecord(row: Selectable<ScimSyncEventsTable>): ScimSyncEventRecord {
  const data: unknown = JSON.parse(row.dataJson);
  return {
    id: row.id,
    connectionId: row.connectionId,
    kind: row.kind,
    outcome: row.outcome === 'failed' ? 'failed' : 'succeeded',
    resourceType: row.resourceType === 'User' || row.resourceType === 'Group' ? row.resourceType : null,
    resourceId: row.resourceId,
    message: row.message,
    data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {},
    createdAt: row.createdAt,
  };
}

/** SCIM sync events in `scim_sync_events`. */
export function scimSyncEventRepository(db: Db): ScimSyncEventRepository {
  return {
    async insert(event) {
      await db
        .insertInto('scimSyncEvents')
        .values({
          id: event.id,
          connectionId: event.connectionId,
          kind: event.kind,
          outcome: event.outcome,
          resourceType: event.resourceType,
          resourceId: event.resourceId,
          message: event.message,
          dataJson: JSON.stringify(event.data),
          createdAt: event.createdAt,
        })
        .execute();
    },

    list(connectionId, query) {
      let select = db.selectFrom('scimSyncEvents').selectAll().where('connectionId', '=', connectionId);
      if (query.outcome !== undefined) select = select.where('outcome', '=', query.outcome);
      return fetchNewestFirst(select, 'createdAt', query, (row) => row.createdAt, toRecord);
    },
  };
}
