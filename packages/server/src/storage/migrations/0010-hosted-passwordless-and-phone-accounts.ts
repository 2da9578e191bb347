import { sql, type Kysely } from 'kysely';
import { isSqlite, rebuildSqliteTable } from './dialect.js';

/**
 * Hosted passwordless sign-in and phone-only accounts.
 *
 * - `auth_requests.challenge_json`: the code or link a pending hosted request waits for (kind, the
 *   SHA-256 of the challenge token in its own table, the masked address shown on the page).
 * - `magic_links.auth_request_id`: a link asked for on a hosted page continues that request.
 * - `users.email` and `users.email_key` become nullable (a phone OTP signup has no address; the unique
 *   key still holds for every set address) and `users.custom_fields_json` keeps signup custom fields.
 *
 * SQLite cannot drop a NOT NULL constraint, so `users` is rebuilt (`rebuildSqliteTable`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_requests').addColumn('challenge_json', 'text').execute();
  await db.schema.alterTable('magic_links').addColumn('auth_request_id', 'text').execute();

  if (isSqlite(db)) {
    await rebuildSqliteUsers(db);
  } else {
    await sql`alter table users alter column email drop not null, alter column email_key drop not null`.execute(
      db,
    );
    await db.schema.alterTable('users').addColumn('custom_fields_json', 'text').execute();
  }
}

async function rebuildSqliteUsers(db: Kysely<unknown>): Promise<void> {
  await rebuildSqliteTable(db, 'users', async () => {
    await sql`create table users_rebuilt (
      id text primary key,
      display_name text not null,
      email text,
      email_key text unique,
      email_verified integer not null default 0,
      password_hash text,
      is_operator integer not null default 0,
      active integer not null default 1,
      created_at bigint not null,
      updated_at bigint not null,
      phone_e164 text,
      phone_verified integer not null default 0,
      custom_fields_json text
    )`.execute(db);
    await sql`insert into users_rebuilt (id, display_name, email, email_key, email_verified, password_hash,
        is_operator, active, created_at, updated_at, phone_e164, phone_verified)
      select id, display_name, email, email_key, email_verified, password_hash, is_operator, active,
        created_at, updated_at, phone_e164, phone_verified from users`.execute(db);
    await sql`drop table users`.execute(db);
    await sql`alter table users_rebuilt rename to users`.execute(db);
    await sql`create index users_created_idx on users (created_at, id)`.execute(db);
    await sql`create unique index users_phone_e164_unique on users (phone_e164)`.execute(db);
  });
}
