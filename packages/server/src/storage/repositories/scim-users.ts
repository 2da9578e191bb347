import type { Selectable } from 'kysely';
import type { ScimUserMatch, ScimUserRecord, ScimUserRepository } from '../../scim/repository.js';
import type { Db } from '../database.js';
import type { ScimUsersTable } from '../schema.js';
import { flag, takenOnConflict } from './partial-updates.js';
import { scimPage } from './scim-paging.js';

function toRecord(row: Selectable<ScimUsersTable>): ScimUserRecord {
  const attributes: unknown = JSON.parse(row.resourceJson);
  return {
    connectionId: row.connectionId,
    userId: row.userId,
    userName: row.userName,
    externalId: row.externalId,
    emailKey: row.emailKey,
    active: row.active === 1,
    attributes:
      typeof attributes === 'object' && attributes !== null ? (attributes as Record<string, unknown>) : {},
    createdUser: row.createdUser === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function columns(record: ScimUserRecord) {
  return {
    userName: record.userName,
    userNameKey: record.userName.toUpperCase(),
    externalId: record.externalId,
    emailKey: record.emailKey,
    active: flag(record.active) ?? 0,
    resourceJson: JSON.stringify(record.attributes),
    updatedAt: record.updatedAt,
  };
}

/** The users SCIM connections provisioned, in `scim_users`; their group memberships in `scim_group_members`. */
export function scimUserRepository(db: Db): ScimUserRepository {
  const connectionUsers = (connectionId: string, match: ScimUserMatch) => {
    const query = db.selectFrom('scimUsers').where('connectionId', '=', connectionId);
    switch (match?.attribute) {
      case undefined:
        return query;
      case 'id':
        return query.where('userId', '=', match.value);
      case 'userName':
        return query.where('userNameKey', '=', match.value.toUpperCase());
      case 'externalId':
        return query.where('externalId', '=', match.value);
      case 'emails.value':
        return query.where('emailKey', '=', match.value.toUpperCase());
    }
  };
  return {
    insert(record) {
      return takenOnConflict(async () => {
        await db
          .insertInto('scimUsers')
          .values({
            connectionId: record.connectionId,
            userId: record.userId,
            createdUser: flag(record.createdUser) ?? 0,
            createdAt: record.createdAt,
            ...columns(record),
          })
          .execute();
        return true as const;
      });
    },

    async find(connectionId, userId) {
      const row = await connectionUsers(connectionId, { attribute: 'id', value: userId })
        .selectAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    list(connectionId, match, page) {
      const query = connectionUsers(connectionId, match);
      return scimPage(
        query.select((eb) => eb.fn.countAll().as('total')),
        query.selectAll().orderBy('createdAt').orderBy('userId'),
        page,
        toRecord,
      );
    },

    replace(record) {
      return takenOnConflict(async () => {
        const row = await db
          .updateTable('scimUsers')
          .set(columns(record))
          .where('connectionId', '=', record.connectionId)
          .where('userId', '=', record.userId)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? undefined : toRecord(row);
      });
    },

    async delete(connectionId, userId) {
      return db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('scimGroupMembers')
          .where('userId', '=', userId)
          .where(
            'groupId',
            'in',
            trx.selectFrom('scimGroups').select('id').where('connectionId', '=', connectionId),
          )
          .execute();
        const result = await trx
          .deleteFrom('scimUsers')
          .where('connectionId', '=', connectionId)
          .where('userId', '=', userId)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      });
    },

    async existing(connectionId, userIds) {
      if (userIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('scimUsers')
        .select('userId')
        .where('connectionId', '=', connectionId)
        .where('userId', 'in', [...userIds])
        .execute();
      return new Set(rows.map((row) => row.userId));
    },
  };
}
