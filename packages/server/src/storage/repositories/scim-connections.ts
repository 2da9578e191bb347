import type { Selectable } from 'kysely';
import type {
  ScimConnectionChanges,
  ScimConnectionConflict,
  ScimConnectionRecord,
  ScimConnectionRepository,
} from '../../scim/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { ScimConnectionsTable } from '../schema.js';
import { listConnectionsWithOrganization } from './connection-lists.js';
import { flag } from './partial-updates.js';

function toRecord(row: Selectable<ScimConnectionsTable>): ScimConnectionRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    displayName: row.displayName,
    enabled: row.enabled === 1,
    tokenHash: row.tokenHash,
    grantBoundaryResourceId: row.grantBoundaryResourceId,
    owner: row.owner === 'code' ? 'code' : 'dashboard',
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * A refused write of an enabled connection: the partial unique index keeps one enabled per organization.
 * The token hash is unique too, but 256 random bits never collide, so any unique violation means this.
 */
async function enabledElsewhereOnConflict<T>(write: () => Promise<T>): Promise<T | ScimConnectionConflict> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) return 'enabled_elsewhere';
    throw error;
  }
}

/** SCIM connections in `scim_connections`. */
export function scimConnectionRepository(db: Db): ScimConnectionRepository {
  return {
    insert(record) {
      return enabledElsewhereOnConflict(async () => {
        await db
          .insertInto('scimConnections')
          .values({
            id: record.id,
            organizationId: record.organizationId,
            displayName: record.displayName,
            enabled: flag(record.enabled) ?? 0,
            tokenHash: record.tokenHash,
            grantBoundaryResourceId: record.grantBoundaryResourceId,
            owner: record.owner,
            createdAt: record.createdAt,
            updatedAt: record.updatedAt,
          })
          .execute();
        return true as const;
      });
    },

    async findById(id) {
      const row = await db.selectFrom('scimConnections').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findByTokenHash(tokenHash) {
      const row = await db
        .selectFrom('scimConnections')
        .innerJoin('organizations', 'organizations.id', 'scimConnections.organizationId')
        .selectAll('scimConnections')
        .select('organizations.active as organizationActive')
        .where('scimConnections.tokenHash', '=', tokenHash)
        .executeTakeFirst();
      return row === undefined
        ? undefined
        : { connection: toRecord(row), organizationActive: row.organizationActive === 1 };
    },

    async listByGrantBoundary(resourceIds) {
      if (resourceIds.length === 0) return [];
      const rows = await db
        .selectFrom('scimConnections')
        .selectAll()
        .where('grantBoundaryResourceId', 'in', [...resourceIds])
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },

    list(query) {
      return listConnectionsWithOrganization(db, 'scimConnections', query, toRecord);
    },

    listForOrganization(organizationId, page) {
      return fetchNewestFirst(
        db.selectFrom('scimConnections').selectAll().where('organizationId', '=', organizationId),
        'createdAt',
        page,
        (row) => row.createdAt,
        toRecord,
      );
    },

    update(id, changes: ScimConnectionChanges, now) {
      return enabledElsewhereOnConflict(async () => {
        const row = await db
          .updateTable('scimConnections')
          .set({
            displayName: changes.displayName,
            enabled: flag(changes.enabled),
            tokenHash: changes.tokenHash,
            grantBoundaryResourceId: changes.grantBoundaryResourceId,
            updatedAt: now,
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? undefined : toRecord(row);
      });
    },
  };
}
