import type { Selectable } from 'kysely';
import type {
  PendingAuthTokenRecord,
  PendingAuthTokenStore,
  PendingSignInContext,
} from '../../signin/repository.js';
import type { Db } from '../database.js';
import type { PendingAuthTokensTable } from '../schema.js';
import { singleUseRows } from '../single-use.js';

function toRecord(row: Selectable<PendingAuthTokensTable>): PendingAuthTokenRecord {
  return {
    tokenHash: row.tokenHash,
    purpose: row.purpose,
    userId: row.userId,
    clientId: row.clientId,
    context: JSON.parse(row.contextJson) as PendingSignInContext,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    consumedAt: row.consumedAt,
  };
}

/** Pending sign-in tokens (organization selection; MFA later) in `pending_auth_tokens`, by hash. */
export function pendingAuthTokenRepository(db: Db): PendingAuthTokenStore {
  const tokens = singleUseRows(db, 'pendingAuthTokens', 'tokenHash');
  return {
    async insert(record) {
      await db
        .insertInto('pendingAuthTokens')
        .values({
          tokenHash: record.tokenHash,
          purpose: record.purpose,
          userId: record.userId,
          clientId: record.clientId,
          contextJson: JSON.stringify(record.context),
          createdAt: record.createdAt,
          expiresAt: record.expiresAt,
          consumedAt: record.consumedAt,
        })
        .execute();
    },

    async findActive(tokenHash, now) {
      const row = await tokens.findActive(tokenHash, now);
      return row === undefined ? undefined : toRecord(row);
    },

    async consume(tokenHash, now) {
      const row = await tokens.consume(tokenHash, now);
      return row === undefined ? undefined : toRecord(row);
    },
  };
}
