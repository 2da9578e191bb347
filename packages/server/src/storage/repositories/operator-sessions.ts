import type { SvcAdminSessionRevocationResult } from '@svc/contract';
import type { ExpressionBuilder } from 'kysely';
import type {
  OperatorSessionStore,
  SessionRevocationTransaction,
} from '../../oauth/tokens/operator-session-repository.js';
import type { Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import { fetchNewestIdFirst } from '../paging.js';
import type { Database, SessionsTable } from '../schema.js';
import { liveBrowserSessionsOf, revokeSessionFamilies, sessionsMatching } from './session-families.js';
import { toSession } from './token-statements.js';

/** A result as stored: without `endedBrowserSessions` when it was stored before that count existed. */
type StoredResult = Omit<SvcAdminSessionRevocationResult, 'endedBrowserSessions'> & {
  readonly endedBrowserSessions?: number;
};

type ListedSessions = ExpressionBuilder<Database & { s: SessionsTable }, 's'>;

/** A session (`s`) usable at `now`: not revoked and before its absolute and idle deadlines. */
const usableAt = (eb: ListedSessions, now: number) =>
  eb.and([
    eb('s.revokedAt', 'is', null),
    eb('s.absoluteExpiresAt', '>', now),
    eb('s.idleExpiresAt', '>', now),
  ]);

/**
 * A session (`s`) usable at `at`, now or earlier: created by then, not revoked by then, and before both
 * deadlines. The stored idle deadline is the one that held then: it only moves on a refresh, and a
 * session past it is never refreshed again.
 */
const usableThen = (eb: ListedSessions, at: number) =>
  eb.and([
    eb('s.createdAt', '<=', at),
    eb.or([eb('s.revokedAt', 'is', null), eb('s.revokedAt', '>', at)]),
    eb('s.absoluteExpiresAt', '>', at),
    eb('s.idleExpiresAt', '>', at),
  ]);

/**
 * The operator's reads and revocations of token sessions over `db`. Organization and client filters
 * scan the sessions table, as deactivations do (docs/reference/organizations.md "Deactivation"): a
 * rare operator action, where an index would cost every sign-in an entry.
 */
export function operatorSessionStore(db: Db): OperatorSessionStore {
  return {
    async list(filter, query, now) {
      // The user, client and organization come in the same query: each is one primary or unique key
      // lookup per row.
      let select = db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.userId')
        .leftJoin('clients as c', 'c.clientId', 's.clientId')
        .leftJoin('organizations as o', 'o.id', 's.organizationId')
        .selectAll('s')
        .select([
          'u.email as userEmail',
          'u.displayName as userDisplayName',
          'c.name as clientName',
          'o.name as organizationName',
          'o.slug as organizationSlug',
        ]);
      const { userId, organizationId, clientId, active } = filter;
      if (userId !== undefined) select = select.where('s.userId', '=', userId);
      if (organizationId !== undefined) select = select.where('s.organizationId', '=', organizationId);
      if (clientId !== undefined) select = select.where('s.clientId', '=', clientId);
      if (active !== undefined) {
        select = select.where((eb) => (active ? usableAt(eb, now) : eb.not(usableAt(eb, now))));
      }
      return fetchNewestIdFirst(
        select,
        query,
        (row) => row.createdAt,
        (row) => ({
          ...toSession(row),
          user: { id: row.userId, email: row.userEmail, displayName: row.userDisplayName },
          client: { clientId: row.clientId, name: row.clientName },
          organization:
            row.organizationId === null || row.organizationName === null || row.organizationSlug === null
              ? null
              : { id: row.organizationId, name: row.organizationName, slug: row.organizationSlug },
        }),
        's.id',
      );
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

    async countUsableAt(instants) {
      if (instants.length === 0) return [];
      // One scan of the sessions table for every instant, each a filtered count of the same rows: the
      // table has no index on the deadlines (one would cost every refresh an entry), and housekeeping
      // keeps it to about the live sessions. The WHERE drops the rows usable at none of the instants.
      const earliest = Math.min(...instants);
      const latest = Math.max(...instants);
      const row = await db
        .selectFrom('sessions as s')
        .select((eb) =>
          instants.map((at, index) =>
            eb.fn.countAll<number | string>().filterWhere(usableThen(eb, at)).as(`at${index}`),
          ),
        )
        .where((eb) =>
          eb.and([
            eb('s.createdAt', '<=', latest),
            eb.or([eb('s.revokedAt', 'is', null), eb('s.revokedAt', '>', earliest)]),
            eb('s.absoluteExpiresAt', '>', earliest),
            eb('s.idleExpiresAt', '>', earliest),
          ]),
        )
        .executeTakeFirstOrThrow();
      const counts = row as Readonly<Record<string, number | string>>;
      return instants.map((_, index) => Number(counts[`at${index}`] ?? 0));
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
