import { sql, type Kysely } from 'kysely';
import { isSqlite, rebuildSqliteTable } from './dialect.js';

/**
 * Token sessions and refresh tokens are stored in the order of their ids, which lead with the time
 * (kernel/ids.ts): each new row is appended where the last one went.
 *
 * - `sessions_created_idx (created_at, id)` goes. It duplicated the order of the ids and cost every
 *   new session an index entry; a list of sessions pages by id.
 * - On SQLite both tables are rebuilt `WITHOUT ROWID`, so that a row lives in its primary key's B-tree
 *   instead of in a rowid table beside an index of its text id: one page written per new row instead of
 *   two. Rows and columns are kept as they are; the other indexes are made again.
 *
 * PostgreSQL keeps every table as a heap beside its primary key's index, so there only the index goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isSqlite(db)) {
    await sql`drop index sessions_created_idx`.execute(db);
    return;
  }
  await rebuildSqliteTable(db, 'sessions', async () => {
    await sql`create table sessions_rebuilt (
      id text primary key,
      user_id text not null references users (id),
      client_id text not null,
      organization_id text references organizations (id),
      granted_scopes_json text,
      resource text,
      amr_json text not null,
      auth_time bigint not null,
      user_agent text,
      ip_address text,
      created_at bigint not null,
      last_seen_at bigint not null,
      idle_expires_at bigint not null,
      absolute_expires_at bigint not null,
      revoked_at bigint,
      revoked_reason text
    ) without rowid`.execute(db);
    await sql`insert into sessions_rebuilt select id, user_id, client_id, organization_id,
        granted_scopes_json, resource, amr_json, auth_time, user_agent, ip_address, created_at,
        last_seen_at, idle_expires_at, absolute_expires_at, revoked_at, revoked_reason
      from sessions`.execute(db);
    await sql`drop table sessions`.execute(db);
    await sql`alter table sessions_rebuilt rename to sessions`.execute(db);
    await sql`create index sessions_user_idx on sessions (user_id)`.execute(db);
  });
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
    ) without rowid`.execute(db);
    await sql`insert into refresh_tokens_rebuilt select id, session_id, token_hash, created_at,
        expires_at, consumed_at, revoked_at, token_format
      from refresh_tokens`.execute(db);
    await sql`drop table refresh_tokens`.execute(db);
    await sql`alter table refresh_tokens_rebuilt rename to refresh_tokens`.execute(db);
    await sql`create index refresh_tokens_session_idx on refresh_tokens (session_id)`.execute(db);
    await sql`create unique index refresh_tokens_opaque_hash_idx on refresh_tokens (token_hash)
      where token_format = 1`.execute(db);
  });
}
