import type { Selectable } from 'kysely';
import type {
  CalendarConsentStateRecord,
  CalendarConsentStateRepository,
} from '../../calendar/consent-state-repository.js';
import type { Db } from '../database.js';
import type { CalendarConsentStatesTable } from '../schema.js';
import { singleUseRows } from '../single-use.js';
import { parseStringList } from './json-columns.js';

function toRecord(row: Selectable<CalendarConsentStatesTable>): CalendarConsentStateRecord {
  return {
    stateHash: row.tokenHash,
    userId: row.userId,
    clientId: row.clientId,
    connectionId: row.connectionId,
    returnUri: row.returnUri,
    redirectUri: row.redirectUri,
    scopes: parseStringList(row.scopesJson),
    secretsSealed: row.secretsSealed,
    browserBinding: row.browserBinding,
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
  };
}

export function calendarConsentStateRepository(db: Db): CalendarConsentStateRepository {
  const rows = singleUseRows(db, 'calendarConsentStates', 'tokenHash');
  return {
    async insert(record) {
      const { stateHash, scopes, ...rest } = record;
      await db
        .insertInto('calendarConsentStates')
        .values({ tokenHash: stateHash, scopesJson: JSON.stringify(scopes), ...rest, consumedAt: null })
        .execute();
    },
    async consume(stateHash, now) {
      const row = await rows.consume(stateHash, now);
      return row === undefined ? undefined : toRecord(row);
    },
  };
}
