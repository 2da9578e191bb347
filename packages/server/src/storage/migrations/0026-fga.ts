import { sql, type Kysely } from 'kysely';

/**
 * Fine-grained authorization (docs/reference/fga.md): definitions (resource types, permissions and
 * roles, one table, told apart by `kind`), the resource tree, subjects other than users (groups,
 * service accounts, agents), group members, grants, and the model's version that every write bumps in
 * its own transaction (docs/decisions/fga-check-cache.md). Times epoch-ms `bigint`, lists JSON text,
 * like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('fga_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into fga_state (id, version) values (1, 1)`.execute(db);

  await db.schema
    .createTable('fga_definitions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // resource_type, permission or role
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // A role's permission keys; null for the other kinds.
    .addColumn('permission_keys_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fga_definitions_kind_key_idx')
    .on('fga_definitions')
    .columns(['kind', 'key'])
    .unique()
    .execute();
  await db.schema
    .createIndex('fga_definitions_kind_created_idx')
    .on('fga_definitions')
    .columns(['kind', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('fga_resources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type_id', 'text', (c) => c.notNull().references('fga_definitions.id'))
    .addColumn('parent_id', 'text', (c) => c.references('fga_resources.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Children of a resource (the subtree walks and the tree listing); resources of a type.
  await db.schema.createIndex('fga_resources_parent_idx').on('fga_resources').column('parent_id').execute();
  await db.schema.createIndex('fga_resources_type_idx').on('fga_resources').column('type_id').execute();
  await db.schema
    .createIndex('fga_resources_created_idx')
    .on('fga_resources')
    .columns(['created_at', 'id'])
    .execute();

  await db.schema
    .createTable('fga_subjects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // group, service_account or agent (users are the users table's)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('fga_subjects_type_created_idx')
    .on('fga_subjects')
    .columns(['type', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('fga_group_members')
    .addColumn('group_id', 'text', (c) => c.notNull().references('fga_subjects.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('fga_group_members_pk', ['group_id', 'user_id'])
    .execute();
  // A user's groups, read on every check of that user whose answer is not cached.
  await db.schema
    .createIndex('fga_group_members_user_idx')
    .on('fga_group_members')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('fga_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('role_id', 'text', (c) => c.notNull().references('fga_definitions.id'))
    .addColumn('resource_id', 'text', (c) => c.notNull().references('fga_resources.id'))
    // operator, or the source that manages the grant (scim:<connectionId>)
    .addColumn('managed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  // One grant per subject, role, resource and manager: granting again answers the grant there is.
  await db.schema
    .createIndex('fga_grants_unique_idx')
    .on('fga_grants')
    .columns(['subject_id', 'subject_type', 'role_id', 'resource_id', 'managed_by'])
    .unique()
    .execute();
  await db.schema.createIndex('fga_grants_resource_idx').on('fga_grants').column('resource_id').execute();
  await db.schema.createIndex('fga_grants_role_idx').on('fga_grants').column('role_id').execute();
  await db.schema.createIndex('fga_grants_managed_idx').on('fga_grants').column('managed_by').execute();
  await db.schema
    .createIndex('fga_grants_created_idx')
    .on('fga_grants')
    .columns(['created_at', 'id'])
    .execute();
}
