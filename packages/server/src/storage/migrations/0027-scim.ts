import { sql, type Kysely } from 'kysely';

/**
 * SCIM 2.0 directory sync (docs/reference/scim.md): connections per
 * organization with the SHA-256 of their bearer token, the users and groups each connection provisioned,
 * group members, and the sync events operators read. Times are epoch-ms `bigint` like 0001; booleans
 * 0/1. Uniqueness lives in the database (partial and composite unique indexes, portable to SQLite and
 * PostgreSQL): one enabled connection per organization, one token hash, one userName, externalId and
 * displayName per connection (compared by their upper-cased key).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scim_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('grant_boundary_resource_id', 'text')
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scim_connections_token_idx')
    .on('scim_connections')
    .column('token_hash')
    .unique()
    .execute();
  await db.schema
    .createIndex('scim_connections_enabled_idx')
    .on('scim_connections')
    .column('organization_id')
    .unique()
    .where(sql.ref('enabled'), '=', 1)
    .execute();
  await db.schema
    .createIndex('scim_connections_org_created_idx')
    .on('scim_connections')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('scim_users')
    .addColumn('connection_id', 'text', (c) => c.notNull().references('scim_connections.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('user_name_key', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('email_key', 'text')
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('resource_json', 'text', (c) => c.notNull())
    .addColumn('created_user', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_users_pk', ['connection_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('scim_users_user_name_idx')
    .on('scim_users')
    .columns(['connection_id', 'user_name_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('scim_users_external_id_idx')
    .on('scim_users')
    .columns(['connection_id', 'external_id'])
    .unique()
    .where(sql.ref('external_id'), 'is not', null)
    .execute();
  // The `emails.value eq` filter; an address may be given to several users, so not unique.
  await db.schema
    .createIndex('scim_users_email_idx')
    .on('scim_users')
    .columns(['connection_id', 'email_key'])
    .execute();

  await db.schema
    .createTable('scim_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('scim_connections.id'))
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('display_name_key', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scim_groups_display_name_idx')
    .on('scim_groups')
    .columns(['connection_id', 'display_name_key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('scim_groups_external_id_idx')
    .on('scim_groups')
    .columns(['connection_id', 'external_id'])
    .unique()
    .where(sql.ref('external_id'), 'is not', null)
    .execute();

  await db.schema
    .createTable('scim_group_members')
    .addColumn('group_id', 'text', (c) => c.notNull().references('scim_groups.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'user_id'])
    .execute();
  // A deprovisioned user leaves every group of the connection: found by user.
  await db.schema
    .createIndex('scim_group_members_user_idx')
    .on('scim_group_members')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('scim_sync_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', (c) => c.notNull().references('scim_connections.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('resource_type', 'text')
    .addColumn('resource_id', 'text')
    .addColumn('message', 'text')
    .addColumn('data_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scim_sync_events_connection_created_idx')
    .on('scim_sync_events')
    .columns(['connection_id', 'created_at', 'id'])
    .execute();
}
