import type { Kysely } from 'kysely';

/**
 * The provider identities linked to accounts: one row per (connection, subject), the `sub` (or GitHub's
 * numeric id) an OpenID / social connection asserted. Deleting the connection or the user deletes its
 * links. Times epoch-ms `bigint`, booleans 0/1, like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_identities')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('oidc_connections.id').onDelete('cascade'),
    )
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .execute();
  // One account per provider identity: concurrent first sign-ins of the same identity link once.
  await db.schema
    .createIndex('oidc_identities_subject_idx')
    .on('oidc_identities')
    .columns(['connection_id', 'subject'])
    .unique()
    .execute();
  await db.schema
    .createIndex('oidc_identities_user_idx')
    .on('oidc_identities')
    .columns(['user_id', 'id'])
    .execute();
}
