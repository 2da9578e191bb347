import { sql, type Kysely } from 'kysely';

/**
 * Organization domain claims proven by a DNS TXT record (docs/reference/organizations.md "Domain claims").
 * One row per organization and domain, reused when a revoked claim is started again; the last look-up is kept
 * in three columns (when, the result, its message); times epoch-ms `bigint` like 0001. Partial unique
 * indexes (SQLite and PostgreSQL both have them) keep one active claim per domain.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organization_domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('verification_value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('last_checked_at', 'bigint')
    .addColumn('last_check_result', 'text')
    .addColumn('last_check_message', 'text')
    .addColumn('failed_rechecks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_check_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('organization_domains_org_domain_idx')
    .on('organization_domains')
    .columns(['organization_id', 'domain'])
    .unique()
    .execute();
  // Home-realm discovery's look-up, and the rule that one organization at a time owns a domain.
  await db.schema
    .createIndex('organization_domains_active_idx')
    .on('organization_domains')
    .column('domain')
    .unique()
    .where(sql.ref('status'), '=', 'active')
    .execute();
  // The organization's list, newest first (keyset on created_at, id).
  await db.schema
    .createIndex('organization_domains_org_created_idx')
    .on('organization_domains')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  // Housekeeping's due re-checks (only active claims have a next check).
  await db.schema
    .createIndex('organization_domains_next_check_idx')
    .on('organization_domains')
    .column('next_check_at')
    .where(sql.ref('next_check_at'), 'is not', null)
    .execute();
}
