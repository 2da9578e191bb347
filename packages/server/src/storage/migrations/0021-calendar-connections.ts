import type { Kysely } from 'kysely';

/**
 * Calendar connections: a user's grant to their Google or Microsoft calendar through a provider
 * connection, one row per (user, connection, account at the provider), its tokens sealed with the master
 * key; and the consents in flight between the redirect to the provider and its callback, found by the
 * SHA-256 of their `state`, used once, short-lived (like 0020). Deleting the user or the provider
 * connection deletes both. Times epoch-ms `bigint`, booleans 0/1, like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('calendar_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('oidc_connections.id').onDelete('cascade'),
    )
    .addColumn('provider_type', 'text', (c) => c.notNull())
    .addColumn('account_subject', 'text', (c) => c.notNull())
    .addColumn('account_issuer', 'text', (c) => c.notNull())
    .addColumn('account_email', 'text')
    .addColumn('scopes_json', 'text', (c) => c.notNull())
    .addColumn('tokens_sealed', 'text')
    .addColumn('offline_access', 'integer', (c) => c.notNull())
    .addColumn('access_token_expires_at', 'bigint')
    .addColumn('status', 'text', (c) => c.notNull())
    // Bumped by every write of tokens or a revocation: a refresh stores its answer only over the row
    // it read, so that it never brings back a revoked connection's tokens or overwrites newer ones.
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('last_refreshed_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  // Consenting again with the same account updates its connection instead of adding a second one.
  await db.schema
    .createIndex('calendar_connections_account_idx')
    .on('calendar_connections')
    .columns(['user_id', 'connection_id', 'account_subject'])
    .unique()
    .execute();
  // Keyset pages, newest first: all connections, and one user's.
  await db.schema
    .createIndex('calendar_connections_created_idx')
    .on('calendar_connections')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('calendar_connections_user_idx')
    .on('calendar_connections')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  // Deleting a provider connection deletes its calendar connections.
  await db.schema
    .createIndex('calendar_connections_connection_idx')
    .on('calendar_connections')
    .column('connection_id')
    .execute();

  await db.schema
    .createTable('calendar_consent_states')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('oidc_connections.id').onDelete('cascade'),
    )
    .addColumn('return_uri', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes_json', 'text', (c) => c.notNull())
    .addColumn('secrets_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  // Housekeeping deletes by expiry.
  await db.schema
    .createIndex('calendar_consent_states_expires_idx')
    .on('calendar_consent_states')
    .column('expires_at')
    .execute();
}
