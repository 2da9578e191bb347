import { type Kysely } from 'kysely';

/**
 * Application access (docs/reference/application-access.md): a client's access mode, and the operator's allow
 * and deny assignments. `access_assignments` counts a client's assignments in the same write as each
 * insert and delete, so that a client in the default mode without assignments (nearly all of them) is
 * checked from its own row, with no second read on the token path. The columns have defaults: nodes of
 * the previous release keep inserting clients during a rolling upgrade, and those are open to all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('clients')
    .addColumn('access_mode', 'text', (c) => c.notNull().defaultTo('all_organizations'))
    .execute();
  await db.schema
    .alterTable('clients')
    .addColumn('access_assignments', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('application_access_assignments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The OAuth client_id, as sessions name their client (and housekeeping's unused-client check reads).
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('principal_type', 'text', (c) => c.notNull())
    .addColumn('principal_id', 'text')
    .addColumn('organization_id', 'text')
    .addColumn('role_key', 'text')
    // `<type>:<principal>` (`role:<organization>:<role>`): one assignment per principal and client.
    .addColumn('principal_key', 'text', (c) => c.notNull())
    .addColumn('effect', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('application_access_assignments_client_idx')
    .on('application_access_assignments')
    .columns(['client_id', 'created_at'])
    .execute();
  // A principal is assigned once per client (allow or deny): a second post is a 409, not a duplicate.
  await db.schema
    .createIndex('application_access_assignments_unique')
    .on('application_access_assignments')
    .columns(['client_id', 'principal_key'])
    .unique()
    .execute();
}
