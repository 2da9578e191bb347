import type { Selectable } from 'kysely';
import type {
  OidcLoginStateRecord,
  OidcLoginStateRepository,
} from '../../federation/oidc/login-state-repository.js';
import type { Db } from '../database.js';
import type { OidcLoginStatesTable } from '../schema.js';
import { singleUseRows } from '../single-use.js';

function toRecord(row: Selectable<OidcLoginStatesTable>): OidcLoginStateRecord {
  return {
    stateHash: row.tokenHash,
    connectionId: row.connectionId,
    authRequestId: row.authRequestId,
    redirectUri: row.redirectUri,
    secretsSealed: row.secretsSealed,
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
  };
}

export function oidcLoginStateRepository(db: Db): OidcLoginStateRepository {
  const rows = singleUseRows(db, 'oidcLoginStates', 'tokenHash');
  return {
    async insert(record) {
      const { stateHash, ...rest } = record;
      await db
        .insertInto('oidcLoginStates')
        .values({ tokenHash: stateHash, ...rest, consumedAt: null })
        .execute();
    },
    async consume(stateHash, now) {
      const row = await rows.consume(stateHash, now);
      return row === undefined ? undefined : toRecord(row);
    },
  };
}
