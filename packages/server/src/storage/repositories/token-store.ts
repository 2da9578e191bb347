import type { Selectable } from 'kysely';
import type {
  AuthorizationCodeRecord,
  RefreshTokenRecord,
  SessionRecord,
  SessionRefreshUpdate,
  TokenStore,
} from '../../oauth/tokens/repository.js';
import type { Db } from '../database.js';
import { affectedRows, fixedQuery, updatedRows } from '../fixed-query.js';
import type { AuthorizationCodesTable, SessionsTable } from '../schema.js';
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

// The token grants' queries, compiled once (storage/fixed-query.ts): every refresh or code exchange runs them.

/** A refresh token with its session in one read; the token's columns that the session shares are renamed. */
const selectRefreshTokenWithSession = fixedQuery((db, p: { tokenHash: string }) =>
  db
    .selectFrom('refreshTokens')
    .innerJoin('sessions', 'sessions.id', 'refreshTokens.sessionId')
    .selectAll('sessions')
    .select([
      'refreshTokens.id as tokenId',
      'refreshTokens.createdAt as tokenCreatedAt',
      'refreshTokens.expiresAt as tokenExpiresAt',
      'refreshTokens.consumedAt as tokenConsumedAt',
      'refreshTokens.revokedAt as tokenRevokedAt',
    ])
    .where('refreshTokens.tokenHash', '=', p.tokenHash),
);

const consumeRefreshTokenQuery = fixedQuery((db, p: { id: string; now: number }) =>
  db
    .updateTable('refreshTokens')
    .set({ consumedAt: p.now })
    .where('id', '=', p.id)
    .where('consumedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', p.now),
);

const refreshSessionQuery = fixedQuery((db, p: { id: string } & SessionRefreshUpdate) =>
  db
    .updateTable('sessions')
    .set({ organizationId: p.organizationId, idleExpiresAt: p.idleExpiresAt, lastSeenAt: p.lastSeenAt })
    .where('id', '=', p.id)
    .where('revokedAt', 'is', null),
);

const insertRefreshTokenQuery = fixedQuery((db, p: RefreshTokenRecord) =>
  db.insertInto('refreshTokens').values({
    id: p.id,
    sessionId: p.sessionId,
    tokenHash: p.tokenHash,
    createdAt: p.createdAt,
    expiresAt: p.expiresAt,
    consumedAt: p.consumedAt,
    revokedAt: p.revokedAt,
  }),
);

const insertSessionQuery = fixedQuery((db, p: Selectable<SessionsTable>) =>
  db.insertInto('sessions').values({
    id: p.id,
    userId: p.userId,
    clientId: p.clientId,
    organizationId: p.organizationId,
    grantedScopesJson: p.grantedScopesJson,
    resource: p.resource,
    amrJson: p.amrJson,
    authTime: p.authTime,
    userAgent: p.userAgent,
    ipAddress: p.ipAddress,
    createdAt: p.createdAt,
    lastSeenAt: p.lastSeenAt,
    idleExpiresAt: p.idleExpiresAt,
    absoluteExpiresAt: p.absoluteExpiresAt,
    revokedAt: p.revokedAt,
    revokedReason: p.revokedReason,
  }),
);

const selectCodeQuery = fixedQuery((db, p: { codeHash: string }) =>
  db.selectFrom('authorizationCodes').selectAll().where('codeHash', '=', p.codeHash),
);

const consumeCodeQuery = fixedQuery((db, p: { codeHash: string; now: number; sessionId: string }) =>
  db
    .updateTable('authorizationCodes')
    .set({ consumedAt: p.now, sessionId: p.sessionId })
    .where('codeHash', '=', p.codeHash)
    .where('consumedAt', 'is', null)
    .where('expiresAt', '>', p.now),
);

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
      await insertSessionQuery(db, {
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
      });
    },

    async refreshSession(id, update) {
      const result = await refreshSessionQuery(db, {
        id,
        organizationId: update.organizationId,
        idleExpiresAt: update.idleExpiresAt,
        lastSeenAt: update.lastSeenAt,
      });
      return affectedRows(result) === 1;
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
      return updatedRows(result) === 1;
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
      await insertRefreshTokenQuery(db, token);
    },

    async findRefreshToken(tokenHash) {
      const { rows } = await selectRefreshTokenWithSession(db, { tokenHash });
      const row = rows[0];
      return row === undefined
        ? undefined
        : {
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
          };
    },

    async consumeRefreshToken(id, now) {
      return affectedRows(await consumeRefreshTokenQuery(db, { id, now })) === 1;
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
      const row = (await selectCodeQuery(db, { codeHash })).rows[0];
      return row === undefined ? undefined : toCode(row);
    },

    async consumeAuthorizationCode(codeHash, now, sessionId) {
      return affectedRows(await consumeCodeQuery(db, { codeHash, now, sessionId })) === 1;
    },
  };
  return store;
}
