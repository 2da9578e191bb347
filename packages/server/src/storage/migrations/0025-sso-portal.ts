import type { Kysely } from 'kysely';

/**
 * The customer SSO setup portal (docs/reference/federation.md "The SSO setup portal"): the operators' setup
 * links (the one-time token stored only as its SHA-256, `consumed_at` set when it is exchanged) and the
 * portal sessions they were exchanged for (the cookie's secret stored only as its SHA-256), each with the
 * last test sign-in's result as JSON text. Times epoch-ms `bigint`, like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_portal_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  // The organization's list, newest first (keyset on created_at, id).
  await db.schema
    .createIndex('sso_portal_links_org_created_idx')
    .on('sso_portal_links')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createTable('sso_portal_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('link_id', 'text', (c) => c.notNull().references('sso_portal_links.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('test_result_json', 'text')
    .execute();
  await db.schema
    .createIndex('sso_portal_sessions_link_idx')
    .on('sso_portal_sessions')
    .column('link_id')
    .execute();
}
