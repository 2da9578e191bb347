import type { AccessTokenSessions } from '../../oauth/tokens/repository.js';
import type { Db } from '../database.js';
import { fixedQuery } from '../fixed-query.js';
import { parseStringList } from './json-columns.js';
import { SESSION_USER_COLUMNS, toSessionUser } from './users.js';

// Every access-token validation (and userinfo request) runs these: compiled once (storage/fixed-query.ts).

/**
 * The session with the columns validation needs, its user's, and the organization id when the user's
 * membership in the session's organization and that organization are both active (the LEFT JOINs match
 * at most one row: a membership is unique per organization and user).
 */
const selectQuery = fixedQuery((db, p: { id: string }) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.userId')
    .leftJoin('memberships as m', (join) =>
      join
        .onRef('m.userId', '=', 's.userId')
        .onRef('m.organizationId', '=', 's.organizationId')
        .on('m.active', '=', 1),
    )
    .leftJoin('organizations as o', (join) =>
      join.onRef('o.id', '=', 'm.organizationId').on('o.active', '=', 1),
    )
    .select([
      's.id',
      's.userId',
      's.clientId',
      's.organizationId',
      's.grantedScopesJson',
      's.amrJson',
      's.lastSeenAt',
      's.idleExpiresAt',
      's.absoluteExpiresAt',
      's.revokedAt',
      'o.id as activeOrganizationId',
    ])
    .select(SESSION_USER_COLUMNS.map((column) => `u.${column}` as const))
    .where('s.id', '=', p.id),
);

const touchQuery = fixedQuery((db, p: { id: string; now: number; writtenBefore: number }) =>
  db
    .updateTable('sessions')
    .set({ lastSeenAt: p.now })
    .where('id', '=', p.id)
    .where('lastSeenAt', '<=', p.writtenBefore),
);

/**
 * Access-token validation's session reads and writes over `db`: one primary-key read joining the user
 * and the membership, and the lastSeenAt write as one conditional UPDATE (when concurrent validations all
 * saw a stale value, the first moves it and the others match no row; PostgreSQL then writes no row
 * version at all).
 */
export function accessTokenSessions(db: Db): AccessTokenSessions {
  return {
    async find(sessionId) {
      const row = (await selectQuery(db, { id: sessionId })).rows[0];
      if (row === undefined) return undefined;
      return {
        session: {
          id: row.id,
          userId: row.userId,
          clientId: row.clientId,
          organizationId: row.organizationId,
          grantedScopes: row.grantedScopesJson === null ? null : parseStringList(row.grantedScopesJson),
          amr: parseStringList(row.amrJson),
          lastSeenAt: row.lastSeenAt,
          idleExpiresAt: row.idleExpiresAt,
          absoluteExpiresAt: row.absoluteExpiresAt,
          revokedAt: row.revokedAt,
        },
        user: toSessionUser(row),
        membershipActive: row.organizationId !== null && row.activeOrganizationId === row.organizationId,
      };
    },

    async touch(sessionId, now, writtenBefore) {
      await touchQuery(db, { id: sessionId, now, writtenBefore });
    },
  };
}
