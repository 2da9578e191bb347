import type { Selectable } from 'kysely';
import type {
  OidcIdentityRecord,
  OidcIdentityRepository,
} from '../../federation/oidc/identity-repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import type { OidcIdentitiesTable } from '../schema.js';
import { providerTypeOf } from './oidc-connections.js';

function toRecord(row: Selectable<OidcIdentitiesTable>): OidcIdentityRecord {
  return {
    id: row.id,
    connectionId: row.connectionId,
    subject: row.subject,
    userId: row.userId,
    email: row.email,
    emailVerified: row.emailVerified === 1,
    createdAt: Number(row.createdAt),
    lastUsedAt: Number(row.lastUsedAt),
  };
}

export function oidcIdentityRepository(db: Db): OidcIdentityRepository {
  return {
    async insert(record) {
      try {
        await db
          .insertInto('oidcIdentities')
          .values({ ...record, emailVerified: record.emailVerified ? 1 : 0 })
          .execute();
        return true;
      } catch (error) {
        // The id is random: the key that collides is (connection, subject).
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async find(connectionId, subject) {
      const row = await db
        .selectFrom('oidcIdentities')
        .selectAll()
        .where('connectionId', '=', connectionId)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async listForUser(userId) {
      // Inner: a connection's links go with it (on delete cascade).
      const rows = await db
        .selectFrom('oidcIdentities as i')
        .innerJoin('oidcConnections as c', 'c.id', 'i.connectionId')
        .selectAll('i')
        .select(['c.displayName as connectionName', 'c.providerType'])
        .where('i.userId', '=', userId)
        .orderBy('i.createdAt')
        .orderBy('i.id')
        .execute();
      return rows.map(({ connectionName, providerType, ...row }) => ({
        ...toRecord(row),
        connection: { displayName: connectionName, providerType: providerTypeOf(providerType) },
      }));
    },

    async touch(id, seen, now) {
      await db
        .updateTable('oidcIdentities')
        .set({ email: seen.email, emailVerified: seen.emailVerified ? 1 : 0, lastUsedAt: now })
        .where('id', '=', id)
        .execute();
    },

    async delete(userId, id) {
      const result = await db
        .deleteFrom('oidcIdentities')
        .where('userId', '=', userId)
        .where('id', '=', id)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },
  };
}
