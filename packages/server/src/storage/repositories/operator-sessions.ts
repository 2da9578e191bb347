import type { SvcAdminSessionRevocationResult } from '@svc/contract';
import type { ExpressionBuilder } from 'kysely';
import type { OperatorSessionStore, SessionRevocationTransaction } from '../../admin/repository.js';
import type { Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import { fetchNewestIdFirst } from '../paging.js';
import type { Database } from '../schema.js';
import {
  liveBrowserSessionsOf,
  revokeSessionFamilies,
  sessionsMatching,
  whereSessionFields,
} from './session-families.js';
import { toSession } from './token-statements.js';

/** A result as stored: without `endedBrowserSessions` when it was stored before that count existed. */
type StoredResult = Omit<SvcAdminSessionRevocationResult, 'endedBrowserSessions'> & {
  readonly endedBrowserSessions?: number;
};

/** A session usable at `now`: not revoked and before its absolute and idle deadlines. */
const usableAt = (eb: ExpressionBuilder<Database, 'sessions'>, now: number) =>
  eb.and([eb('revokedAt', 'is', null), eb('absoluteExpiresAt', '>', now), eb('idleExpiresAt', '>', now)]);

/**
 * The operator's reads and revocations of token sessions over `db`. Organization and client filters
 * scan the sessions table, as deactivations do (docs/decisions/admin-deactivation-ends-sessions.md): a
 * rare operator action, where an index would cost every sign-in an entry.
 */
export function operatorSessionStore(db: Db): OperatorSessionStore {
  return {
    async list(filter, query, now) {
      let select = whereSessionFields(db.selectFrom('sessions').selectAll(), filter);
      const { active } = filter;
      if (active !== undefined) {
        select = select.where((eb) => (active ? usableAt(eb, now) : eb.not(usableAt(eb, now))));
      }
      return fetchNewestIdFirst(select, query, (row) => row.createdAt, toSession);
    },

    async count(selector, now) {
      const sessions = await sessionsMatching(db, selector)
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      const tokens = await db
        .selectFrom('refreshTokens')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('sessionId', 'in', sessionsMatching(db, selector).select('id'))
        .where('revokedAt', 'is', null)
        .where('consumedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirstOrThrow();
      const browserSessions = await db
        .selectFrom('browserSessions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where(liveBrowserSessionsOf(db, selector, now))
        .executeTakeFirstOrThrow();
      return {
        matchedSessions: Number(sessions.count),
        activeRefreshTokens: Number(tokens.count),
        activeBrowserSessions: Number(browserSessions.count),
      };
    },

    async countUsable(now) {
      // A scan of the sessions table, as the filters above: housekeeping keeps it to about the live
      // sessions, and an index on the deadlines would cost every refresh an entry.
      const row = await db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where((eb) => usableAt(eb, now))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    transaction: (work) => db.transaction().execute((tx) => work(revocationTransaction(tx))),
  };
}

function revocationTransaction(tx: Db): SessionRevocationTransaction {
  return {
    async claimOperation(operation) {
      const result = await tx
        .insertInto('sessionRevocationOperations')
        .values({ ...operation, resultJson: null })
        .onConflict((conflict) => conflict.column('operationId').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async findOperation(operationId) {
      const row = await tx
        .selectFrom('sessionRevocationOperations')
        .selectAll()
        .where('operationId', '=', operationId)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const { resultJson, ...operation } = row;
      if (resultJson === null) return { ...operation, result: null };
      // An operation stored before browser sessions were counted ended none.
      const stored = JSON.parse(resultJson) as StoredResult;
      return { ...operation, result: { ...stored, endedBrowserSessions: stored.endedBrowserSessions ?? 0 } };
    },

    async completeOperation(operationId, result) {
      await tx
        .updateTable('sessionRevocationOperations')
        .set({ resultJson: JSON.stringify(result) })
        .where('operationId', '=', operationId)
        .execute();
    },

    async matchSessions(selector, limit) {
      const rows = await sessionsMatching(tx, selector).select('id').limit(limit).execute();
      return rows.map((row) => row.id);
    },

    revokeSessions: (ids, now, reason) => revokeSessionFamilies(tx, ids, now, reason),

    async endBrowserSessions(selector, now) {
      const result = await tx
        .updateTable('browserSessions')
        .set({ revokedAt: now })
        .where(liveBrowserSessionsOf(tx, selector, now))
        .executeTakeFirst();
      return updatedRows(result);
    },
  };
}
