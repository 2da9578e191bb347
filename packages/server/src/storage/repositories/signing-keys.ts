import type { NewSigningKey, SigningKeyRecord, SigningKeyRepository } from '../../oauth/keys/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import type { SigningKeysTable } from '../schema.js';

function toRecord(row: SigningKeysTable): SigningKeyRecord {
  return {
    kid: row.kid,
    alg: 'RS256',
    publicJwk: JSON.parse(row.publicJwkJson) as Record<string, unknown>,
    privateKeySealed: row.privateKeySealed,
    active: row.activeSlot === 1,
    createdAt: row.createdAt,
    rotatedOutAt: row.rotatedOutAt,
  };
}

function toRow(key: NewSigningKey): SigningKeysTable {
  return {
    kid: key.kid,
    alg: key.alg,
    publicJwkJson: JSON.stringify(key.publicJwk),
    privateKeySealed: key.privateKeySealed,
    activeSlot: 1,
    createdAt: key.createdAt,
    rotatedOutAt: null,
  };
}

export function signingKeyRepository(db: Db): SigningKeyRepository {
  return {
    async list() {
      const rows = await db
        .selectFrom('signingKeys')
        .selectAll()
        .orderBy('createdAt', 'desc')
        .orderBy('kid')
        .execute();
      return rows.map(toRecord);
    },
    async insertFirstActive(key) {
      try {
        await db.insertInto('signingKeys').values(toRow(key)).execute();
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async rotate(currentKid, next, now) {
      return db.transaction().execute(async (tx) => {
        // The conditional update is the race guard: on PostgreSQL a concurrent rotation waits for this
        // row and then matches nothing; the unique active_slot backs it up.
        const result = await tx
          .updateTable('signingKeys')
          .set({ activeSlot: null, rotatedOutAt: now })
          .where('kid', '=', currentKid)
          .where('activeSlot', '=', 1)
          .executeTakeFirst();
        if (updatedRows(result) !== 1) return false;
        await tx.insertInto('signingKeys').values(toRow(next)).execute();
        return true;
      });
    },
    async deleteRotatedOutBefore(cutoff) {
      const result = await db
        .deleteFrom('signingKeys')
        .where('activeSlot', 'is', null)
        .where('rotatedOutAt', '<', cutoff)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
