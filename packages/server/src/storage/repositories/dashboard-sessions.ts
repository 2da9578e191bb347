import type { DashboardSessionRepository } from '../../operator-dashboard/repository.js';
import type { Db } from '../database.js';

/** Operator dashboard sessions in `dashboard_sessions`, read with their token session and user. */
export function dashboardSessionRepository(db: Db): DashboardSessionRepository {
  return {
    async insert(record) {
      await db.insertInto('dashboardSessions').values(record).execute();
    },

    async findLive(secretHash, now) {
      const row = await db
        .selectFrom('dashboardSessions as d')
        .innerJoin('sessions as s', 's.id', 'd.tokenSessionId')
        .innerJoin('users as u', 'u.id', 'd.userId')
        .select([
          'd.id',
          'd.secretHash',
          'd.tokenSessionId',
          'd.userId',
          'd.createdAt',
          'd.expiresAt',
          'u.displayName',
          'u.email',
        ])
        .where('d.secretHash', '=', secretHash)
        .where('d.expiresAt', '>', now)
        .where('s.revokedAt', 'is', null)
        .where('s.absoluteExpiresAt', '>', now)
        .where('u.active', '=', 1)
        .where('u.isOperator', '=', 1)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const { displayName, email, ...session } = row;
      return { session, user: { id: session.userId, displayName, email } };
    },

    async delete(secretHash) {
      return db
        .deleteFrom('dashboardSessions')
        .where('secretHash', '=', secretHash)
        .returningAll()
        .executeTakeFirst();
    },
  };
}
