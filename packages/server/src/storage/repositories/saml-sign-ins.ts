import type { Selectable } from 'kysely';
import type {
  SamlIdentityRecord,
  SamlIdentityRepository,
  SamlSignInHandleRepository,
} from '../../federation/saml/sign-in-repository.js';
import type { Db } from '../database.js';
import type { SamlIdentitiesTable } from '../schema.js';
import { singleUseRows } from '../single-use.js';

function toIdentity(row: Selectable<SamlIdentitiesTable>): SamlIdentityRecord {
  return {
    id: row.id,
    connectionId: row.connectionId,
    nameId: row.nameId,
    userId: row.userId,
    email: row.email,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
  };
}

/** Linked SAML identities in `saml_identities`; the unique (connection, NameID) index decides a race. */
export function samlIdentityRepository(db: Db): SamlIdentityRepository {
  return {
    async insert(record) {
      const row = await db
        .insertInto('samlIdentities')
        .values(record)
        .onConflict((conflict) => conflict.columns(['connectionId', 'nameId']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },
    async find(connectionId, nameId) {
      const row = await db
        .selectFrom('samlIdentities')
        .selectAll()
        .where('connectionId', '=', connectionId)
        .where('nameId', '=', nameId)
        .executeTakeFirst();
      return row === undefined ? undefined : toIdentity(row);
    },
    async touch(id, email, now) {
      await db.updateTable('samlIdentities').set({ email, lastUsedAt: now }).where('id', '=', id).execute();
    },
  };
}

/** Accepted answers in `saml_sign_in_handles`, each taken once (storage/single-use.ts). */
export function samlSignInHandleRepository(db: Db): SamlSignInHandleRepository {
  const rows = singleUseRows(db, 'samlSignInHandles', 'tokenHash');
  return {
    async insert(record) {
      const { handleHash, ...rest } = record;
      await db
        .insertInto('samlSignInHandles')
        .values({ tokenHash: handleHash, ...rest, consumedAt: null })
        .execute();
    },
    async consume(handleHash, now) {
      const row = await rows.consume(handleHash, now);
      if (row === undefined) return undefined;
      return {
        handleHash: row.tokenHash,
        connectionId: row.connectionId,
        signInJson: row.signInJson,
        createdAt: row.createdAt,
        expiresAt: row.expiresAt,
      };
    },
  };
}
