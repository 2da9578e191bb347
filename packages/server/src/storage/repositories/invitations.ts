import type { Selectable } from 'kysely';
import type {
  InvitationRecord,
  InvitationRepository,
  InvitationStatus,
} from '../../signin/methods/invitation/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { InvitationsTable } from '../schema.js';

function parseFields(json: string): Record<string, string> {
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' ? (value as Record<string, string>) : {};
}

function toRecord(row: Selectable<InvitationsTable>): InvitationRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    email: row.email,
    emailKey: row.emailKey,
    role: row.role,
    clientId: row.clientId,
    redirectUri: row.redirectUri,
    customFields: parseFields(row.customFieldsJson),
    status: row.status as InvitationStatus,
    tokenHash: row.tokenHash,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    resentAt: row.resentAt,
    revokedAt: row.revokedAt,
    revokeReason: row.revokeReason,
    acceptedAt: row.acceptedAt,
    acceptedUserId: row.acceptedUserId,
  };
}

/** PostgreSQL reports affected rows as bigint, SQLite as number. */
const changed = (result: { numUpdatedRows: bigint | number }): boolean => Number(result.numUpdatedRows) > 0;

/** Invitations in the `invitations` table (0009). */
export function invitationRepository(db: Db): InvitationRepository {
  return {
    async insert(invitation) {
      await db
        .insertInto('invitations')
        .values({
          id: invitation.id,
          organizationId: invitation.organizationId,
          email: invitation.email,
          emailKey: invitation.emailKey,
          role: invitation.role,
          clientId: invitation.clientId,
          redirectUri: invitation.redirectUri,
          customFieldsJson: JSON.stringify(invitation.customFields),
          status: invitation.status,
          tokenHash: invitation.tokenHash,
          expiresAt: invitation.expiresAt,
          createdAt: invitation.createdAt,
          resentAt: invitation.resentAt,
          revokedAt: invitation.revokedAt,
          revokeReason: invitation.revokeReason,
          acceptedAt: invitation.acceptedAt,
          acceptedUserId: invitation.acceptedUserId,
        })
        .execute();
    },

    async findById(id) {
      const row = await db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findByTokenHash(tokenHash) {
      const row = await db
        .selectFrom('invitations')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    listByOrganization(organizationId, { status, now }, page) {
      // The organization's (created_at, id) index serves the order; a status is checked on its rows.
      let select = db.selectFrom('invitations').selectAll().where('organizationId', '=', organizationId);
      if (status === 'pending') {
        select = select.where('status', '=', 'pending').where('expiresAt', '>', now);
      } else if (status === 'expired') {
        select = select.where((eb) =>
          eb.or([
            eb('status', '=', 'expired'),
            eb.and([eb('status', '=', 'pending'), eb('expiresAt', '<=', now)]),
          ]),
        );
      } else if (status !== undefined) {
        select = select.where('status', '=', status);
      }
      return fetchNewestFirst(select, 'createdAt', page, (row) => row.createdAt, toRecord);
    },

    async replaceToken(id, tokenHash, expiresAt, now) {
      const result = await db
        .updateTable('invitations')
        .set({ tokenHash, expiresAt, resentAt: now })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return changed(result);
    },

    async revoke(id, reason, now) {
      const result = await db
        .updateTable('invitations')
        .set({ status: 'revoked', revokedAt: now, revokeReason: reason })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return changed(result);
    },

    async accept(id, tokenHash, userId, now) {
      const result = await db
        .updateTable('invitations')
        .set({ status: 'accepted', acceptedAt: now, acceptedUserId: userId })
        .where('id', '=', id)
        .where('tokenHash', '=', tokenHash)
        .where('status', '=', 'pending')
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return changed(result);
    },

    async markEmailVerified(userId, now) {
      await db
        .updateTable('users')
        .set({ emailVerified: 1, updatedAt: now })
        .where('id', '=', userId)
        .execute();
    },
  };
}
