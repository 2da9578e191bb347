import type { Kysely } from 'kysely';

/**
 * SCIM group mapping rules (docs/reference/scim.md "Mapping rules"): per connection, which groups
 * (by display name and/or externalId) get which FGA role on which resource. Role and resource carry no
 * foreign key: the FGA model may delete them, and a rule whose resource is gone reads as outside its
 * boundary instead of blocking the delete. The grants they make are FGA grants managed by `scim:<connectionId>`
 * (0026): no table of their own. Times are epoch-ms `bigint`; booleans 0/1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scim_mappings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('scim_connections.id'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('group_display_name', 'text')
    .addColumn('group_external_id', 'text')
    .addColumn('role_id', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Listed per connection newest first, and read whole per connection on every group push.
  await db.schema
    .createIndex('scim_mappings_connection_created_idx')
    .on('scim_mappings')
    .columns(['connection_id', 'created_at', 'id'])
    .execute();
}
