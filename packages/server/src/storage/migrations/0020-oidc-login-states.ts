import type { Kysely } from 'kysely';

/**
 * A sign-in through a provider between the redirect to it and its callback: found by the SHA-256 of the
 * `state` sent to the provider, used once, short-lived. The nonce and PKCE verifier are sealed with the
 * master key (bound to the state's hash); the row names the authorization request it continues.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_login_states')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('oidc_connections.id').onDelete('cascade'),
    )
    .addColumn('auth_request_id', 'text')
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('secrets_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  // Housekeeping deletes by expiry.
  await db.schema
    .createIndex('oidc_login_states_expires_idx')
    .on('oidc_login_states')
    .column('expires_at')
    .execute();
}
