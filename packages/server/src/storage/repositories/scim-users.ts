import type { Selectable, Transaction } from 'kysely';
import type {
  ScimUserEmail,
  ScimUserMatch,
  ScimUserRecord,
  ScimUserRepository,
} from '../../scim/repository.js';
import type { Db } from '../database.js';
import type { Database, ScimUsersTable } from '../schema.js';
import { flag, takenOnConflict } from './partial-updates.js';
import { scimPage } from './scim-paging.js';

function toRecord(row: Selectable<ScimUsersTable>): ScimUserRecord {
  const attributes: unknown = JSON.parse(row.resourceJson);
  return {
    connectionId: row.connectionId,
    userId: row.userId,
    userName: row.userName,
    externalId: row.externalId,
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
    active: flag(record.active) ?? 0,
    resourceJson: JSON.stringify(record.attributes),
    updatedAt: record.updatedAt,
  };
}

/** Writes the user's rows of `scim_user_emails` (a user just inserted or replaced has none). */
async function insertEmails(
  trx: Transaction<Database>,
  record: ScimUserRecord,
  emails: readonly ScimUserEmail[],
): Promise<void> {
  if (emails.length === 0) return;
  await trx
    .insertInto('scimUserEmails')
    .values(
      emails.map((email) => ({
        connectionId: record.connectionId,
        userId: record.userId,
        emailKey: email.key,
        typeKey: email.type,
      })),
    )
    .execute();
}

/**
 * The users SCIM connections provisioned, in `scim_users`, with the addresses the `emails.value` filter
 * matches in `scim_user_emails` (removed with their user by the foreign key); their group memberships in
 * `scim_group_members`.
 */
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
      case 'emails.value': {
        let emails = db
          .selectFrom('scimUserEmails')
          .select('userId')
          .where('connectionId', '=', connectionId)
          .where('emailKey', '=', match.value);
        if (match.type !== undefined) emails = emails.where('typeKey', '=', match.type);
        return query.where('userId', 'in', emails);
      }
    }
  };
  return {
    insert(record, emails) {
      return takenOnConflict(() =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('scimUsers')
            .values({
              connectionId: record.connectionId,
              userId: record.userId,
              createdUser: flag(record.createdUser) ?? 0,
              createdAt: record.createdAt,
              ...columns(record),
            })
            .execute();
          await insertEmails(trx, record, emails);
          return true as const;
        }),
      );
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

    replace(record, emails) {
      return takenOnConflict(() =>
        db.transaction().execute(async (trx) => {
          const row = await trx
            .updateTable('scimUsers')
            .set(columns(record))
            .where('connectionId', '=', record.connectionId)
            .where('userId', '=', record.userId)
            .returningAll()
            .executeTakeFirst();
          if (row === undefined) return undefined;
          await trx
            .deleteFrom('scimUserEmails')
            .where('connectionId', '=', record.connectionId)
            .where('userId', '=', record.userId)
            .execute();
          await insertEmails(trx, record, emails);
          return toRecord(row);
        }),
      );
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
