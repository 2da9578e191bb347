import type { Selectable } from 'kysely';
import type {
  SamlRequestCodeRecord,
  SamlRequestCodeRepository,
} from '../../federation/saml/request-code-repository.js';
import type { Db } from '../database.js';
import type { SamlRequestCodesTable } from '../schema.js';
import { singleUseRows } from '../single-use.js';

function toRecord(row: Selectable<SamlRequestCodesTable>): SamlRequestCodeRecord {
  return {
    codeHash: row.codeHash,
    clientId: row.clientId,
    redirectUri: row.redirectUri,
    codeChallenge: row.codeChallenge,
    userId: row.userId,
    organizationId: row.organizationId,
    connectionId: row.connectionId,
    authTime: row.authTime,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}

/** The request-token flow's codes in `saml_request_codes`, each used once (storage/single-use.ts). */
export function samlRequestCodeRepository(db: Db): SamlRequestCodeRepository {
  const rows = singleUseRows(db, 'samlRequestCodes', 'codeHash');
  return {
    async insert(record) {
      await db
        .insertInto('samlRequestCodes')
        .values({ ...record, consumedAt: null })
        .execute();
    },
    async findActive(codeHash, now) {
      const row = await rows.findActive(codeHash, now);
      return row === undefined ? undefined : toRecord(row);
    },
    async consume(codeHash, now) {
      const row = await rows.consume(codeHash, now);
      return row === undefined ? undefined : toRecord(row);
    },
  };
}
