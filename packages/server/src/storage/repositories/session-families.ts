import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely';
import type { SessionRevocationReason, SessionSelector } from '../../oauth/tokens/repository.js';
import type { Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import { idChunks } from '../id-chunks.js';
import type { Database } from '../schema.js';

/**
 * Revoking token sessions with their refresh-token families: the one implementation behind logout,
 * logout-all and the deactivations (token-store.ts) and the operator's revocations (operator-sessions.ts).
 */

type SessionsQuery<O> = SelectQueryBuilder<Database, 'sessions', O>;

/** The session fields an operator filters and selects by; each given one must match. */
export function whereSessionFields<O>(
  query: SessionsQuery<O>,
  fields: {
    readonly userId?: string | undefined;
    readonly organizationId?: string | undefined;
    readonly clientId?: string | undefined;
  },
): SessionsQuery<O> {
  let filtered = query;
  if (fields.userId !== undefined) filtered = filtered.where('userId', '=', fields.userId);
  if (fields.organizationId !== undefined) {
    filtered = filtered.where('organizationId', '=', fields.organizationId);
  }
  if (fields.clientId !== undefined) filtered = filtered.where('clientId', '=', fields.clientId);
  return filtered;
}

/** The sessions a revocation's selector matches (every given field, AND). */
export function sessionsMatching(db: Db, selector: SessionSelector): SessionsQuery<object> {
  const { sessionId, userId, organizationId, clientId } = selector;
  // The type rules out an empty selector; a cast that slipped one through must not match every session.
  if ([sessionId, userId, organizationId, clientId].every((field) => field === undefined)) {
    throw new Error('A session selector names no field.');
  }
  const query = whereSessionFields(db.selectFrom('sessions'), selector);
  return sessionId === undefined ? query : query.where('id', '=', sessionId);
}

/**
 * The issuer (browser) sessions live at `now` that a revocation of the selector ends with the token
 * sessions: the named user's, else those of every user whose sessions the selector matches. A browser
 * session belongs to a user only and signs them in again silently to any client and organization, so
 * leaving it would let `prompt=none` mint what was just revoked
 * (docs/decisions/admin-session-revocation-browser-sessions.md).
 */
export function liveBrowserSessionsOf(db: Db, selector: SessionSelector, now: number) {
  return (eb: ExpressionBuilder<Database, 'browserSessions'>) =>
    eb.and([
      eb('revokedAt', 'is', null),
      eb('expiresAt', '>', now),
      selector.userId === undefined
        ? eb('userId', 'in', sessionsMatching(db, selector).select('userId'))
        : eb('userId', '=', selector.userId),
    ]);
}

/**
 * Revokes the sessions with these ids and every refresh token of theirs, on `db` (a transaction where
 * several sessions go at once, so that none is left revoked with a usable token). Answers how many
 * sessions were revoked now and how many of the tokens were still usable (unconsumed and unexpired).
 */
export async function revokeSessionFamilies(
  db: Db,
  ids: readonly string[],
  now: number,
  reason: SessionRevocationReason,
): Promise<{ sessions: number; activeRefreshTokens: number }> {
  let sessions = 0;
  let activeRefreshTokens = 0;
  for (const chunk of idChunks(ids)) {
    const revoked = await db
      .updateTable('sessions')
      .set({ revokedAt: now, revokedReason: reason })
      .where('id', 'in', chunk)
      .where('revokedAt', 'is', null)
      .executeTakeFirst();
    sessions += updatedRows(revoked);
    const usable = await db
      .updateTable('refreshTokens')
      .set({ revokedAt: now })
      .where('sessionId', 'in', chunk)
      .where('revokedAt', 'is', null)
      .where('consumedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
    activeRefreshTokens += updatedRows(usable);
    // The consumed and expired ones too (also of a session revoked before), so that no family is half-revoked.
    await db
      .updateTable('refreshTokens')
      .set({ revokedAt: now })
      .where('sessionId', 'in', chunk)
      .where('revokedAt', 'is', null)
      .execute();
  }
  return { sessions, activeRefreshTokens };
}
