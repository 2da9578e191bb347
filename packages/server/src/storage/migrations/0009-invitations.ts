import type { Kysely } from 'kysely';

/**
 * Email invitations into an organization (docs/reference/organizations.md "Invitations (operator side)").
 * Only the SHA-256 of the current token is kept (`token_hash`); a resend replaces it, so the previous link
 * stops working. Times are epoch-ms `bigint` like 0001; `custom_fields_json` is JSON text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text')
    .addColumn('redirect_uri', 'text')
    .addColumn('custom_fields_json', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('resent_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoke_reason', 'text')
    .addColumn('accepted_at', 'bigint')
    .addColumn('accepted_user_id', 'text')
    .execute();
  // The operator list is per organization, newest first.
  await db.schema
    .createIndex('invitations_org_created_idx')
    .on('invitations')
    .columns(['organization_id', 'created_at'])
    .execute();
}
