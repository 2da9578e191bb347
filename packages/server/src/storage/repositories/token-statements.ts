/**
 * The statements of the token store (storage/repositories/token-store.ts): fixed queries compiled once
 * per dialect, and the rows they read mapped to records.
 */
import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type {
  AuthorizationCodeRecord,
  RefreshTokenRecord,
  RotationOutcome,
  SessionRecord,
  SessionRefreshUpdate,
} from '../../oauth/tokens/repository.js';
import type { Db } from '../database.js';
import { allColumns, fixedQuery } from '../fixed-query.js';
import type { AuthorizationCodesTable, SessionsTable } from '../schema.js';
import { parseStringList } from './json-columns.js';
import { SESSION_USER_COLUMNS } from './users.js';

export function toSession(row: Selectable<SessionsTable>): SessionRecord {
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

export function toCode(row: Selectable<AuthorizationCodesTable>): AuthorizationCodeRecord {
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
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
  };
}

export function sessionRow(session: SessionRecord): SessionRow {
  return {
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
  };
}

export function tokenParams(token: RefreshTokenRecord): TokenParams {
  return {
    tokenId: token.id,
    tokenHash: token.tokenHash,
    tokenCreatedAt: token.createdAt,
    tokenExpiresAt: token.expiresAt,
  };
}

/** The PostgreSQL rotation's answer: whether it consumed the token and whether it added the successor. */
export function rotationOutcome(consumed: boolean, added: boolean): RotationOutcome {
  if (added) return 'rotated';
  return consumed ? 'session_revoked' : 'token_used';
}

// The token grants' queries, compiled once (storage/fixed-query.ts): every refresh or code exchange runs them.

/**
 * Every session column with its PostgreSQL type: the casts of `insert into sessions … select` (see
 * below), and the column list of the reads.
 */
const SESSION_COLUMN_TYPES = {
  id: 'text',
  userId: 'text',
  clientId: 'text',
  organizationId: 'text',
  grantedScopesJson: 'text',
  resource: 'text',
  amrJson: 'text',
  authTime: 'bigint',
  userAgent: 'text',
  ipAddress: 'text',
  createdAt: 'bigint',
  lastSeenAt: 'bigint',
  idleExpiresAt: 'bigint',
  absoluteExpiresAt: 'bigint',
  revokedAt: 'bigint',
  revokedReason: 'text',
} as const;
const SESSION_COLUMNS = allColumns<SessionsTable>(SESSION_COLUMN_TYPES);

/**
 * A refresh token with its session and the session's user in one read; the token's columns that the
 * session shares are renamed (the user's it does not have). (The organization membership stays a read of its
 * own, made only for an organization's session: on PostgreSQL, planning two more joins on every refresh
 * cost more than the read saves.)
 */
const refreshTokenWithSession = (db: Db) =>
  db
    .selectFrom('refreshTokens')
    .innerJoin('sessions', 'sessions.id', 'refreshTokens.sessionId')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .select(SESSION_COLUMNS.map((column) => `sessions.${column}` as const))
    .select([
      'refreshTokens.id as tokenId',
      'refreshTokens.createdAt as tokenCreatedAt',
      'refreshTokens.expiresAt as tokenExpiresAt',
      'refreshTokens.consumedAt as tokenConsumedAt',
      'refreshTokens.revokedAt as tokenRevokedAt',
    ])
    .select(SESSION_USER_COLUMNS.map((column) => `users.${column}` as const));

/** A token found by the row id it names, which must also hold its hash. */
export const selectRefreshTokenById = fixedQuery((db, p: { id: string; tokenHash: string }) =>
  refreshTokenWithSession(db)
    .where('refreshTokens.id', '=', p.id)
    .where('refreshTokens.tokenHash', '=', p.tokenHash),
);

/**
 * `refresh_tokens.token_format` (migration 0013): 2 for a token that names its row, which is every token
 * written now; 1 for an opaque one from before. The opaque ones' hashes have an index of their own.
 */
const NAMED_ROW = 2;
const OPAQUE = 1;

/** An opaque token by its hash; the format is SQL text, so that the partial index is seen to apply. */
export const selectOpaqueRefreshToken = fixedQuery((db, p: { tokenHash: string }) =>
  refreshTokenWithSession(db)
    .where('refreshTokens.tokenHash', '=', p.tokenHash)
    .where('refreshTokens.tokenFormat', '=', sql.lit(OPAQUE)),
);

export const consumeRefreshTokenQuery = fixedQuery((db, p: { id: string; now: number }) =>
  db
    .updateTable('refreshTokens')
    .set({ consumedAt: p.now })
    .where('id', '=', p.id)
    .where('consumedAt', 'is', null)
    .where('revokedAt', 'is', null)
    .where('expiresAt', '>', p.now),
);

export const refreshSessionQuery = fixedQuery((db, p: { id: string } & SessionRefreshUpdate) =>
  db
    .updateTable('sessions')
    .set({ organizationId: p.organizationId, idleExpiresAt: p.idleExpiresAt, lastSeenAt: p.lastSeenAt })
    .where('id', '=', p.id)
    .where('revokedAt', 'is', null),
);

export const insertRefreshTokenQuery = fixedQuery((db, p: RefreshTokenRecord) =>
  db.insertInto('refreshTokens').values({
    id: p.id,
    sessionId: p.sessionId,
    tokenHash: p.tokenHash,
    createdAt: p.createdAt,
    expiresAt: p.expiresAt,
    consumedAt: p.consumedAt,
    revokedAt: p.revokedAt,
    tokenFormat: sql.lit(NAMED_ROW),
  }),
);

type SessionRow = Selectable<SessionsTable>;

/** A session row's values, each read from `p` (so that fixedQuery binds each one). */
const sessionInsert = (p: SessionRow): SessionRow =>
  Object.fromEntries(SESSION_COLUMNS.map((column) => [column, p[column]])) as SessionRow;

export const insertSessionQuery = fixedQuery((db, p: SessionRow) =>
  db.insertInto('sessions').values(sessionInsert(p)),
);

const CODE_COLUMNS = allColumns<AuthorizationCodesTable>({
  codeHash: true,
  clientId: true,
  userId: true,
  organizationId: true,
  redirectUri: true,
  codeChallenge: true,
  scopeJson: true,
  resource: true,
  nonce: true,
  authTime: true,
  amrJson: true,
  createdAt: true,
  expiresAt: true,
  consumedAt: true,
  sessionId: true,
  userAgent: true,
  ipAddress: true,
});
/** A code with its user in one read (every code names an existing user: a foreign key, never deleted). */
export const selectCodeQuery = fixedQuery((db, p: { codeHash: string }) =>
  db
    .selectFrom('authorizationCodes')
    .innerJoin('users', 'users.id', 'authorizationCodes.userId')
    .select(CODE_COLUMNS.map((column) => `authorizationCodes.${column}` as const))
    .select(SESSION_USER_COLUMNS.map((column) => `users.${column}` as const))
    .where('authorizationCodes.codeHash', '=', p.codeHash),
);

export const consumeCodeQuery = fixedQuery((db, p: { codeHash: string; now: number; sessionId: string }) =>
  db
    .updateTable('authorizationCodes')
    .set({ consumedAt: p.now, sessionId: p.sessionId })
    .where('codeHash', '=', p.codeHash)
    .where('consumedAt', 'is', null)
    .where('expiresAt', '>', p.now),
);

// PostgreSQL runs each grant's writes as one statement (data-modifying WITH clauses): one round trip
// where a transaction takes one per statement plus BEGIN and COMMIT. A WITH clause's rows come from
// `select … from <previous clause>`, whose parameters PostgreSQL cannot type from the target columns,
// hence the casts.

/** A session row's values as the select list of `insert into sessions … select`. */
function sessionValues<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, p: SessionRow) {
  return SESSION_COLUMNS.map((column) => eb.cast(eb.val(p[column]), SESSION_COLUMN_TYPES[column]).as(column));
}

/** A refresh token's columns as `insert into refresh_tokens … select` writes them: the session first. */
const TOKEN_COLUMNS = ['sessionId', 'id', 'tokenHash', 'createdAt', 'expiresAt', 'tokenFormat'] as const;

interface TokenParams {
  readonly tokenId: string;
  readonly tokenHash: string;
  readonly tokenCreatedAt: number;
  readonly tokenExpiresAt: number;
}

/** A new refresh token's values after its session id (which the WITH clause it is selected from returns). */
function tokenValues<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, p: TokenParams) {
  return [
    eb.cast(eb.val(p.tokenId), 'text').as('id'),
    eb.cast(eb.val(p.tokenHash), 'text').as('tokenHash'),
    eb.cast(eb.val(p.tokenCreatedAt), 'bigint').as('createdAt'),
    eb.cast(eb.val(p.tokenExpiresAt), 'bigint').as('expiresAt'),
    eb.lit(NAMED_ROW).as('tokenFormat'),
  ];
}

export const createSessionStatement = fixedQuery((db, p: SessionRow & TokenParams) =>
  db
    .with('created', (q) => q.insertInto('sessions').values(sessionInsert(p)).returning('id'))
    .insertInto('refreshTokens')
    .columns(TOKEN_COLUMNS)
    .expression((eb) => eb.selectFrom('created').select(['id as sessionId', ...tokenValues(eb, p)])),
);

export const redeemCodeStatement = fixedQuery(
  (db, p: SessionRow & TokenParams & { codeHash: string; now: number }) =>
    db
      .with('consumed', (q) =>
        q
          .updateTable('authorizationCodes')
          .set({ consumedAt: p.now, sessionId: p.id })
          .where('codeHash', '=', p.codeHash)
          .where('consumedAt', 'is', null)
          .where('expiresAt', '>', p.now)
          .returning('codeHash'),
      )
      .with('created', (q) =>
        q
          .insertInto('sessions')
          .columns(SESSION_COLUMNS)
          .expression((eb) => eb.selectFrom('consumed').select(sessionValues(eb, p)))
          .returning('id'),
      )
      .insertInto('refreshTokens')
      .columns(TOKEN_COLUMNS)
      .expression((eb) => eb.selectFrom('created').select(['id as sessionId', ...tokenValues(eb, p)])),
);

export const rotateStatement = fixedQuery(
  (
    db,
    p: SessionRefreshUpdate & {
      consumedId: string;
      now: number;
      nextId: string;
      nextHash: string;
      nextCreatedAt: number;
      nextExpiresAt: number;
    },
  ) =>
    db
      .with('consumed', (q) =>
        q
          .updateTable('refreshTokens')
          .set({ consumedAt: p.now })
          .where('id', '=', p.consumedId)
          .where('consumedAt', 'is', null)
          .where('revokedAt', 'is', null)
          .where('expiresAt', '>', p.now)
          .returning('sessionId'),
      )
      .with('refreshed', (q) =>
        q
          .updateTable('sessions')
          .set({ organizationId: p.organizationId, idleExpiresAt: p.idleExpiresAt, lastSeenAt: p.lastSeenAt })
          .where('id', 'in', q.selectFrom('consumed').select('sessionId'))
          .where('revokedAt', 'is', null)
          .returning('id'),
      )
      .with('added', (q) =>
        q
          .insertInto('refreshTokens')
          .columns(TOKEN_COLUMNS)
          .expression((eb) =>
            eb.selectFrom('refreshed').select([
              'id as sessionId',
              ...tokenValues(eb, {
                tokenId: p.nextId,
                tokenHash: p.nextHash,
                tokenCreatedAt: p.nextCreatedAt,
                tokenExpiresAt: p.nextExpiresAt,
              }),
            ]),
          )
          .returning('id'),
      )
      .selectNoFrom((eb) => [
        eb.exists(eb.selectFrom('consumed').select('sessionId')).as('consumed'),
        eb.exists(eb.selectFrom('added').select('id')).as('added'),
      ]),
);
