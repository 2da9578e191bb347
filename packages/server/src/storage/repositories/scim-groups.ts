import type { Selectable, Transaction } from 'kysely';
import type { ScimGroupMatch, ScimGroupRecord, ScimGroupRepository } from '../../scim/repository.js';
import type { Db } from '../database.js';
import type { Database, ScimGroupsTable } from '../schema.js';
import { idChunks } from '../id-chunks.js';
import { takenOnConflict } from './partial-updates.js';
import { scimPage } from './scim-paging.js';

function toRecord(row: Selectable<ScimGroupsTable>): ScimGroupRecord {
  return {
    id: row.id,
    connectionId: row.connectionId,
    displayName: row.displayName,
    externalId: row.externalId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function writeMembers(trx: Transaction<Database>, groupId: string, memberIds: readonly string[]) {
  await trx.deleteFrom('scimGroupMembers').where('groupId', '=', groupId).execute();
  if (memberIds.length === 0) return;
  await trx
    .insertInto('scimGroupMembers')
    .values([...new Set(memberIds)].map((userId) => ({ groupId, userId })))
    .execute();
}

/** The groups SCIM connections pushed, in `scim_groups`, with their members in `scim_group_members`. */
export function scimGroupRepository(db: Db): ScimGroupRepository {
  const connectionGroups = (connectionId: string, match: ScimGroupMatch) => {
    const query = db.selectFrom('scimGroups').where('connectionId', '=', connectionId);
    switch (match?.attribute) {
      case undefined:
        return query;
      case 'id':
        return query.where('id', '=', match.value);
      case 'displayName':
        return query.where('displayNameKey', '=', match.value.toUpperCase());
      case 'externalId':
        return query.where('externalId', '=', match.value);
    }
  };
  return {
    insert(record, memberIds) {
      return takenOnConflict(() =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('scimGroups')
            .values({ ...record, displayNameKey: record.displayName.toUpperCase() })
            .execute();
          await writeMembers(trx, record.id, memberIds);
          return true as const;
        }),
      );
    },

    async find(connectionId, groupId) {
      const row = await connectionGroups(connectionId, { attribute: 'id', value: groupId })
        .selectAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    list(connectionId, match, page) {
      const query = connectionGroups(connectionId, match);
      return scimPage(
        query.select((eb) => eb.fn.countAll().as('total')),
        query.selectAll().orderBy('createdAt').orderBy('id'),
        page,
        toRecord,
      );
    },

    async members(groupIds) {
      const members = new Map<string, string[]>(groupIds.map((id) => [id, []]));
      if (groupIds.length === 0) return members;
      const rows = await db
        .selectFrom('scimGroupMembers')
        .select(['groupId', 'userId'])
        .where('groupId', 'in', [...groupIds])
        .orderBy('userId')
        .execute();
      for (const row of rows) members.get(row.groupId)?.push(row.userId);
      return members;
    },

    replace(record, memberIds) {
      return takenOnConflict(() =>
        db.transaction().execute(async (trx) => {
          const row = await trx
            .updateTable('scimGroups')
            .set({
              displayName: record.displayName,
              displayNameKey: record.displayName.toUpperCase(),
              externalId: record.externalId,
              updatedAt: record.updatedAt,
            })
            .where('connectionId', '=', record.connectionId)
            .where('id', '=', record.id)
            .returningAll()
            .executeTakeFirst();
          if (row === undefined) return undefined;
          await writeMembers(trx, record.id, memberIds);
          return toRecord(row);
        }),
      );
    },

    async delete(connectionId, groupId) {
      return db.transaction().execute(async (trx) => {
        const group = await trx
          .selectFrom('scimGroups')
          .select('id')
          .where('connectionId', '=', connectionId)
          .where('id', '=', groupId)
          .executeTakeFirst();
        if (group === undefined) return false;
        await trx.deleteFrom('scimGroupMembers').where('groupId', '=', groupId).execute();
        await trx.deleteFrom('scimGroups').where('id', '=', groupId).execute();
        return true;
      });
    },

    async groupsOf(connectionId, userId) {
      const rows = await db
        .selectFrom('scimGroups')
        .innerJoin('scimGroupMembers', 'scimGroupMembers.groupId', 'scimGroups.id')
        .selectAll('scimGroups')
        .where('scimGroups.connectionId', '=', connectionId)
        .where('scimGroupMembers.userId', '=', userId)
        .execute();
      return rows.map(toRecord);
    },

    async groupsOfUsers(connectionId, userIds) {
      const groups = new Map<string, ScimGroupRecord[]>(userIds.map((id) => [id, []]));
      for (const chunk of idChunks(userIds)) {
        const rows = await db
          .selectFrom('scimGroups')
          .innerJoin('scimGroupMembers', 'scimGroupMembers.groupId', 'scimGroups.id')
          .selectAll('scimGroups')
          .select('scimGroupMembers.userId as memberId')
          .where('scimGroups.connectionId', '=', connectionId)
          .where('scimGroupMembers.userId', 'in', chunk)
          .execute();
        for (const { memberId, ...row } of rows) groups.get(memberId)?.push(toRecord(row));
      }
      return groups;
    },
  };
}
