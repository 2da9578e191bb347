import { PostgresAdapter } from 'kysely';
import type { RotationOutcome, SessionRefreshUpdate, TokenStore } from '../../oauth/tokens/repository.js';
import type { Db } from '../database.js';
import { affectedRows, inTransaction, writeAtomically, writeStep } from '../fixed-query.js';
import { revokeSessionFamilies, sessionsMatching } from './session-families.js';
import { toSessionUser } from './users.js';
import {
  consumeCodeQuery,
  consumeRefreshTokenQuery,
  createSessionStatement,
  insertRefreshTokenQuery,
  insertSessionQuery,
  redeemCodeStatement,
  refreshSessionQuery,
  rotateStatement,
  rotationOutcome,
  selectCodeQuery,
  selectOpaqueRefreshToken,
  selectRefreshTokenById,
  sessionRow,
  toCode,
  toSession,
  tokenParams,
} from './token-statements.js';

/**
 * Sessions, refresh tokens and authorization codes over `db`, which may be a transaction. Single use is
 * one conditional UPDATE (`… AND consumed_at IS NULL AND expires_at > now`) checking the affected rows,
 * which is exact on both databases under concurrency. A grant's writes are all or nothing: on PostgreSQL
 * one statement, on SQLite one transaction (or the caller's, when `db` is one).
 */
export function tokenStore(db: Db): TokenStore {
  // A grant's writes: one statement on PostgreSQL; on SQLite steps of one transaction (writeAtomically),
  // or of the caller's (a device-code poll's).
  const onPostgres = db.getExecutor().adapter instanceof PostgresAdapter;

  const store: TokenStore = {
    async createSession(session, firstToken) {
      if (onPostgres) {
        await createSessionStatement(db, { ...sessionRow(session), ...tokenParams(firstToken) });
        return;
      }
      await writeAtomically(
        db,
        [writeStep(insertSessionQuery, sessionRow(session)), writeStep(insertRefreshTokenQuery, firstToken)],
        undefined,
      );
    },

    async rotateRefreshToken(rotation) {
      const { tokenId, now, next } = rotation;
      const update: SessionRefreshUpdate = {
        organizationId: rotation.update.organizationId,
        idleExpiresAt: rotation.update.idleExpiresAt,
        lastSeenAt: rotation.update.lastSeenAt,
      };
      if (onPostgres) {
        const { rows } = await rotateStatement(db, {
          consumedId: tokenId,
          now,
          ...update,
          nextId: next.id,
          nextHash: next.tokenHash,
          nextCreatedAt: next.createdAt,
          nextExpiresAt: next.expiresAt,
        });
        return rotationOutcome(rows[0]?.consumed === true, rows[0]?.added === true);
      }
      return writeAtomically<RotationOutcome>(
        db,
        [
          writeStep(consumeRefreshTokenQuery, { id: tokenId, now }, 'token_used'),
          writeStep(refreshSessionQuery, { id: next.sessionId, ...update }, 'session_revoked'),
          writeStep(insertRefreshTokenQuery, next),
        ],
        'rotated',
      );
    },

    async redeemAuthorizationCode(codeHash, now, session, firstToken) {
      if (onPostgres) {
        const result = await redeemCodeStatement(db, {
          codeHash,
          now,
          ...sessionRow(session),
          ...tokenParams(firstToken),
        });
        return affectedRows(result) === 1;
      }
      return writeAtomically(
        db,
        [
          writeStep(consumeCodeQuery, { codeHash, now, sessionId: session.id }, false),
          writeStep(insertSessionQuery, sessionRow(session)),
          writeStep(insertRefreshTokenQuery, firstToken),
        ],
        true,
      );
    },

    // Its tokens are revoked even when the session already was, so that a family is never half-revoked.
    revokeSession: async (id, now, reason) =>
      (await revokeSessionFamilies(db, [id], now, reason)).sessions === 1,

    revokeSessions: (selector, now, reason) =>
      inTransaction(db, async (tx) => {
        const live = await sessionsMatching(tx, selector)
          .select('id')
          .where('revokedAt', 'is', null)
          .execute();
        const revoked = await revokeSessionFamilies(
          tx,
          live.map((row) => row.id),
          now,
          reason,
        );
        return revoked.sessions;
      }),

    async findRefreshToken({ id, tokenHash }) {
      const { rows } =
        id === null
          ? await selectOpaqueRefreshToken(db, { tokenHash })
          : await selectRefreshTokenById(db, { id, tokenHash });
      const row = rows[0];
      if (row === undefined) return undefined;
      return {
        token: {
          id: row.tokenId,
          sessionId: row.id,
          tokenHash,
          createdAt: row.tokenCreatedAt,
          expiresAt: row.tokenExpiresAt,
          consumedAt: row.tokenConsumedAt,
          revokedAt: row.tokenRevokedAt,
        },
        session: toSession(row),
        user: toSessionUser(row),
      };
    },

    async insertAuthorizationCode(code) {
      await db
        .insertInto('authorizationCodes')
        .values({
          codeHash: code.codeHash,
          clientId: code.clientId,
          userId: code.userId,
          organizationId: code.organizationId,
          redirectUri: code.redirectUri,
          codeChallenge: code.codeChallenge,
          scopeJson: JSON.stringify(code.scopes),
          resource: code.resource,
          nonce: code.nonce,
          authTime: code.authTime,
          amrJson: JSON.stringify(code.amr),
          createdAt: code.createdAt,
          expiresAt: code.expiresAt,
          consumedAt: code.consumedAt,
          sessionId: code.sessionId,
          userAgent: code.userAgent,
          ipAddress: code.ipAddress,
        })
        .execute();
    },

    async findAuthorizationCode(codeHash) {
      const row = (await selectCodeQuery(db, { codeHash })).rows[0];
      return row === undefined ? undefined : { code: toCode(row), user: toSessionUser(row) };
    },
  };
  return store;
}
