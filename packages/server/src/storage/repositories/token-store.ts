import type { Selectable } from 'kysely';
import type {
  AuthorizationCodeRecord,
  RefreshTokenRecord,
  SessionRecord,
  TokenStore,
} from '../../oauth/tokens/repository.js';
import type { Db } from '../database.js';
import type { AuthorizationCodesTable, RefreshTokensTable, SessionsTable } from '../schema.js';
import { parseStringList } from './json-columns.js';

function toSession(row: Selectable<SessionsTable>): SessionRecord {
  return {
    id: row.id,
    userId: row.userId,
    clientId: row.clientId,
    organizationId: row.organizationId,
    grantedScopes: row.grantedScopesJson === null ? null : parseStringList(row.grantedScopesJson),
    resource: row.resource,
    amr: parseStringList(row.amrJson),
    authTime: row.authTime,
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt,
    lastSeenAt: row.lastSeenAt,
    idleExpiresAt: row.idleExpiresAt,
    absoluteExpiresAt: row.absoluteExpiresAt,
    revokedAt: row.revokedAt,
    revokedReason: row.revokedReason,
  };
}

function toRefreshToken(row: Selectable<RefreshTokensTable>): RefreshTokenRecord {
  return {
    id: row.id,
    sessionId: row.sessionId,
    tokenHash: row.tokenHash,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    consumedAt: row.consumedAt,
    revokedAt: row.revokedAt,
  };
}

function toCode(row: Selectable<AuthorizationCodesTable>): AuthorizationCodeRecord {
  return {
    codeHash: row.codeHash,
    clientId: row.clientId,
    userId: row.userId,
    organizationId: row.organizationId,
    redirectUri: row.redirectUri,
    codeChallenge: row.codeChallenge,
    scopes: parseStringList(row.scopeJson),
    resource: row.resource,
    nonce: row.nonce,
    authTime: row.authTime,
    amr: parseStringList(row.amrJson),
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    consumedAt: row.consumedAt,
    sessionId: row.sessionId,
  };
}

/** PostgreSQL reports affected rows as bigint, SQLite as bigint too through Kysely: compare as numbers. */
function affected(result: { numUpdatedRows: bigint } | undefined): number {
  return Number(result?.numUpdatedRows ?? 0n);
}

/**
 * Sessions, refresh tokens and authorization codes over `db`, which may be a transaction. Single use is
 * one conditional UPDATE (`… AND consumed_at IS NULL AND expires_at > now`) checking the affected rows,
 * which is exact on both databases under concurrency.
 */
export function tokenStore(db: Db): TokenStore {
  const revokeTokensOf = (sessionIds: readonly string[], now: number) =>
    sessionIds.length === 0
      ? Promise.resolve()
      : db
          .updateTable('refreshTokens')
          .set({ revokedAt: now })
          .where('sessionId', 'in', sessionIds)
          .where('revokedAt', 'is', null)
          .execute()
          .then(() => undefined);

  const store: TokenStore = {
    transaction: (work) => db.transaction().execute((tx) => work(tokenStore(tx))),

    async insertSession(session) {
      await db
        .insertInto('sessions')
        .values({
          id: session.id,
          userId: session.userId,
          clientId: session.clientId,
          organizationId: session.organizationId,
          grantedScopesJson: session.grantedScopes === null ? null : JSON.stringify(session.grantedScopes),
          resource: session.resource,
          amrJson: JSON.stringify(session.amr),
          authTime: session.authTime,
          userAgent: session.userAgent,
          ipAddress: session.ipAddress,
          createdAt: session.createdAt,
          lastSeenAt: session.lastSeenAt,
          idleExpiresAt: session.idleExpiresAt,
          absoluteExpiresAt: session.absoluteExpiresAt,
          revokedAt: session.revokedAt,
          revokedReason: session.revokedReason,
        })
        .execute();
    },

    async findSession(id) {
      const row = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toSession(row);
    },

    async refreshSession(id, update) {
      const result = await db
        .updateTable('sessions')
        .set({
          organizationId: update.organizationId,
          idleExpiresAt: update.idleExpiresAt,
          lastSeenAt: update.lastSeenAt,
        })
        .where('id', '=', id)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      return affected(result) === 1;
    },

    async touchSession(id, now) {
      await db.updateTable('sessions').set({ lastSeenAt: now }).where('id', '=', id).execute();
    },

    async revokeSession(id, now, reason) {
      const result = await db
        .updateTable('sessions')
        .set({ revokedAt: now, revokedReason: reason })
        .where('id', '=', id)
        .where('revokedAt', 'is', null)
        .executeTakeFirst();
      // Tokens are revoked even when the session already was, so that a family is never half-revoked.
      await revokeTokensOf([id], now);
      return affected(result) === 1;
    },

    async revokeUserSessions(userId, now, reason) {
      const rows = await db
        .updateTable('sessions')
        .set({ revokedAt: now, revokedReason: reason })
        .where('userId', '=', userId)
        .where('revokedAt', 'is', null)
        .returning('id')
        .execute();
      const ids = rows.map((row) => row.id);
      for (let i = 0; i < ids.length; i += 500) await revokeTokensOf(ids.slice(i, i + 500), now);
      return ids.length;
    },

    async insertRefreshToken(token) {
      await db
        .insertInto('refreshTokens')
        .values({ ...token })
        .execute();
    },

    async findRefreshToken(tokenHash) {
      const token = await db
        .selectFrom('refreshTokens')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .executeTakeFirst();
      if (token === undefined) return undefined;
      const session = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', token.sessionId)
        .executeTakeFirst();
      return session === undefined
        ? undefined
        : { token: toRefreshToken(token), session: toSession(session) };
    },

    async consumeRefreshToken(id, now) {
      const result = await db
        .updateTable('refreshTokens')
        .set({ consumedAt: now })
        .where('id', '=', id)
        .where('consumedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return affected(result) === 1;
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
        })
        .execute();
    },

    async findAuthorizationCode(codeHash) {
      const row = await db
        .selectFrom('authorizationCodes')
        .selectAll()
        .where('codeHash', '=', codeHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toCode(row);
    },

    async consumeAuthorizationCode(codeHash, now) {
      const result = await db
        .updateTable('authorizationCodes')
        .set({ consumedAt: now })
        .where('codeHash', '=', codeHash)
        .where('consumedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return affected(result) === 1;
    },

    async setAuthorizationCodeSession(codeHash, sessionId) {
      await db
        .updateTable('authorizationCodes')
        .set({ sessionId })
        .where('codeHash', '=', codeHash)
        .execute();
    },
  };
  return store;
}
