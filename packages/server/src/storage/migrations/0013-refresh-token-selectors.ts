import { sql, type Kysely } from 'kysely';
import { isSqlite, rebuildSqliteTable } from './dialect.js';

/**
 * Refresh tokens name their row: a token is `<row id>.<secret>` and is found by its id (whose index
 * grows at its end, the ids leading with the time), then matched on `token_hash`, the SHA-256 of the
 * whole token. The unique index on `token_hash`, on whose random pages every new token landed, goes.
 *
 * A token issued before this migration carries no id. Its row keeps its hash in `legacy_hash` as well,
 * under a partial unique index that new rows (null there) never enter, so that such a token still
 * refreshes until it expires; its successor has the new form.
 *
 * SQLite cannot drop a column's UNIQUE constraint, so `refresh_tokens` is rebuilt (`rebuildSqliteTable`).
 * Nothing references it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isSqlite(db)) {
    await rebuildSqliteRefreshTokens(db);
  } else {
    await sql`alter table refresh_tokens drop constraint refresh_tokens_token_hash_key`.execute(db);
    await db.schema.alterTable('refresh_tokens').addColumn('legacy_hash', 'text').execute();
    await sql`update refresh_tokens set legacy_hash = token_hash`.execute(db);
  }
  await sql`create unique index refresh_tokens_legacy_hash_idx on refresh_tokens (legacy_hash)
    where legacy_hash is not null`.execute(db);
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
      legacy_hash text
    )`.execute(db);
    await sql`insert into refresh_tokens_rebuilt (id, session_id, token_hash, created_at, expires_at,
        consumed_at, revoked_at, legacy_hash)
      select id, session_id, token_hash, created_at, expires_at, consumed_at, revoked_at, token_hash
      from refresh_tokens`.execute(db);
    await sql`drop table refresh_tokens`.execute(db);
    await sql`alter table refresh_tokens_rebuilt rename to refresh_tokens`.execute(db);
    await sql`create index refresh_tokens_session_idx on refresh_tokens (session_id)`.execute(db);
  });
}
