import type { Selectable } from 'kysely';
import type {
  PortalTestResult,
  SsoPortalLinkRecord,
  SsoPortalRepository,
  SsoPortalSessionRecord,
} from '../../federation/sso-portal/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { SsoPortalLinksTable, SsoPortalSessionsTable } from '../schema.js';

function toLink(row: Selectable<SsoPortalLinksTable>): SsoPortalLinkRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    tokenHash: row.tokenHash,
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    consumedAt: row.consumedAt === null ? null : Number(row.consumedAt),
    revokedAt: row.revokedAt === null ? null : Number(row.revokedAt),
  };
}

function toSession(row: Selectable<SsoPortalSessionsTable>): SsoPortalSessionRecord {
  return {
    id: row.id,
    linkId: row.linkId,
    organizationId: row.organizationId,
    secretHash: row.secretHash,
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    testResult: row.testResultJson === null ? null : (JSON.parse(row.testResultJson) as PortalTestResult),
  };
}

/** Setup links in `sso_portal_links` and portal sessions in `sso_portal_sessions`. */
export function ssoPortalRepository(db: Db): SsoPortalRepository {
  return {
    async insertLink(record) {
      await db.insertInto('ssoPortalLinks').values(record).execute();
    },

    async findLink(id) {
      const row = await db.selectFrom('ssoPortalLinks').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toLink(row);
    },

    listLinks(organizationId, page) {
      return fetchNewestFirst(
        db.selectFrom('ssoPortalLinks').selectAll().where('organizationId', '=', organizationId),
        'createdAt',
        page,
        (row) => Number(row.createdAt),
        toLink,
      );
    },

    listAllLinks({ organizationId, ...page }) {
      return fetchNewestFirst(
        db
          .selectFrom('ssoPortalLinks')
          .selectAll()
          .$if(organizationId !== undefined, (qb) => qb.where('organizationId', '=', organizationId ?? '')),
        'createdAt',
        page,
        (row) => Number(row.createdAt),
        toLink,
      );
    },

    async revokeLink(id, now) {
      await db
        .updateTable('ssoPortalLinks')
        .set({ revokedAt: now })
        .where('id', '=', id)
        .where('revokedAt', 'is', null)
        .execute();
      return this.findLink(id);
    },

    async consumeLink(tokenHash, now) {
      // One conditional UPDATE: of concurrent exchanges of the same token exactly one gets the row.
      const row = await db
        .updateTable('ssoPortalLinks')
        .set({ consumedAt: now })
        .where('tokenHash', '=', tokenHash)
        .where('consumedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', now)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toLink(row);
    },

    async insertSession(record) {
      const { testResult, ...columns } = record;
      await db
        .insertInto('ssoPortalSessions')
        .values({ ...columns, testResultJson: testResult === null ? null : JSON.stringify(testResult) })
        .execute();
    },

    findLiveSession(secretHash, now) {
      return findLive(db, 'secretHash', secretHash, now);
    },

    findLiveSessionById(id, now) {
      return findLive(db, 'id', id, now);
    },

    async recordTestResult(sessionId, result) {
      await db
        .updateTable('ssoPortalSessions')
        .set({ testResultJson: JSON.stringify(result) })
        .where('id', '=', sessionId)
        .execute();
    },
  };
}

/** A session by its secret's hash or its id, read with its link on every request: revoking the link ends it on every node. */
async function findLive(
  db: Db,
  column: 'secretHash' | 'id',
  value: string,
  now: number,
): Promise<SsoPortalSessionRecord | undefined> {
  const row = await db
    .selectFrom('ssoPortalSessions as s')
    .innerJoin('ssoPortalLinks as l', 'l.id', 's.linkId')
    .selectAll('s')
    .where(`s.${column}`, '=', value)
    .where('s.expiresAt', '>', now)
    .where('l.revokedAt', 'is', null)
    .executeTakeFirst();
  return row === undefined ? undefined : toSession(row);
}
