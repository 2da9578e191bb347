import { sql, type Kysely } from 'kysely';
import { isSqlite, rebuildSqliteTable } from './dialect.js';

/**
 * Refresh tokens name their row: a token is `<row id>.<secret>` (`token_format` 2) and is found by its
 * id (whose index grows at its end, the ids leading with the time), then matched on `token_hash`, the
 * SHA-256 of the whole token. The unique index on every `token_hash`, on whose random pages each new
 * token landed, goes.
 *
 * A token of the earlier form (`token_format` 1, the column's default) is an opaque secret, found by its
 * hash under a partial unique index that rows of the new form never enter. The default also covers the
 * rows that nodes of the previous release write while a rolling upgrade replaces them, so that a token
 * they issue still refreshes on the new nodes; its successor has the new form.
 *
 * SQLite cannot drop a column's UNIQUE constraint, so `refresh_tokens` is rebuilt (`rebuildSqliteTable`).
 * Nothing references it. On PostgreSQL the column's constant default adds it without rewriting the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await rebuildSqliteRefreshTokens(db);
  } else {
    await sql`alter table refresh_tokens add column token_format integer not null default 1`.execute(db);
    await sql`alter table refresh_tokens drop constraint refresh_tokens_token_hash_key`.execute(db);
  }
  await sql`create unique index refresh_tokens_opaque_hash_idx on refresh_tokens (token_hash)
    where token_format = 1`.execute(db);
}

async function rebuildSqliteRefreshTokens(db: Kysely<unknown>): Promise<void> {
  await rebuildSqliteTable(db, 'refresh_tokens', async () => {
    await sql`create table refresh_tokens_rebuilt (
      id text primary key,
      session_id text not null references sessions (id),
      token_hash text not null,
      created_at bigint not null,
      expires_at bigint not null,
      consumed_at bigint,
      revoked_at bigint,
      token_format integer not null default 1
    )`.execute(db);
    await sql`insert into refresh_tokens_rebuilt (id, session_id, token_hash, created_at, expires_at,
        consumed_at, revoked_at)
      select id, session_id, token_hash, created_at, expires_at, consumed_at, revoked_at
      from refresh_tokens`.execute(db);
    await sql`drop table refresh_tokens`.execute(db);
    await sql`alter table refresh_tokens_rebuilt rename to refresh_tokens`.execute(db);
    await sql`create index refresh_tokens_session_idx on refresh_tokens (session_id)`.execute(db);
  });
}
