import type { Kysely } from 'kysely';

/**
 * SAML sign-in: the identities linked to accounts, one row per (SSO connection, NameID), so the same
 * user has the same `sub` on every sign-in; and the accepted answers between the ACS post and the
 * browser's next request, each kept under the SHA-256 of a one-time handle. Also an index for home-realm
 * discovery by a connection's primary domain. Times epoch-ms `bigint`, like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saml_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('sso_connections.id').onDelete('cascade'),
    )
    .addColumn('name_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
  // One account per SAML identity: concurrent first sign-ins of the same NameID link once.
  await db.schema
    .createIndex('saml_identities_name_id_idx')
    .on('saml_identities')
    .columns(['connection_id', 'name_id'])
    .unique()
    .execute();
  await db.schema
    .createIndex('saml_identities_user_idx')
    .on('saml_identities')
    .columns(['user_id', 'id'])
    .execute();

  // An accepted answer waiting for the browser's GET (a cross-site POST carries no SameSite=Lax cookie).
  await db.schema
    .createTable('saml_sign_in_handles')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('sso_connections.id').onDelete('cascade'),
    )
    .addColumn('sign_in_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('saml_sign_in_handles_expires_idx')
    .on('saml_sign_in_handles')
    .column('expires_at')
    .execute();

  await db.schema
    .createIndex('sso_connections_primary_domain_idx')
    .on('sso_connections')
    .columns(['primary_domain', 'created_at'])
    .execute();
}
