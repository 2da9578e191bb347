import type { Kysely } from 'kysely';

/** Organizations, users, memberships, clients, security settings, signing keys and the audit log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('primary_domain', 'text')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('organizations_created_idx')
    .on('organizations')
    .columns(['created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('organizations_primary_domain_idx')
    .on('organizations')
    .column('primary_domain')
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull().unique())
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text')
    .addColumn('is_operator', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_created_idx').on('users').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('memberships_org_user_unique', ['organization_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user_idx').on('memberships').column('user_id').execute();

  await db.schema
    .createTable('clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('redirect_uris_json', 'text', (c) => c.notNull())
    .addColumn('is_first_party', 'integer', (c) => c.notNull())
    .addColumn('allowed_scopes_json', 'text', (c) => c.notNull())
    .addColumn('allowed_resources_json', 'text', (c) => c.notNull())
    .addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull())
    .addColumn('client_secret_hash', 'text')
    .addColumn('allow_device_authorization', 'integer', (c) => c.notNull())
    .addColumn('allow_client_credentials', 'integer', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('clients_created_idx').on('clients').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('security_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('refresh_token_lifetime_minutes', 'integer', (c) => c.notNull())
    .addColumn('session_idle_timeout_minutes', 'integer', (c) => c.notNull())
    .addColumn('session_absolute_lifetime_minutes', 'integer', (c) => c.notNull())
    .addColumn('signing_key_rotation_interval_days', 'integer', (c) => c.notNull())
    .addColumn('signing_key_grace_window_days', 'integer', (c) => c.notNull())
    .addColumn('signing_key_retired_cleanup_days', 'integer', (c) => c.notNull())
    .addColumn('refresh_token_grace_window_seconds', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('public_jwk_json', 'text', (c) => c.notNull())
    .addColumn('private_key_sealed', 'text', (c) => c.notNull())
    .addColumn('active_slot', 'integer', (c) => c.unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('rotated_out_at', 'bigint')
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'bigint', (c) => c.notNull())
    .addColumn('actor_type', 'text')
    .addColumn('actor_id', 'text')
    .addColumn('organization_id', 'text')
    .addColumn('user_id', 'text')
    .addColumn('client_id', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('data_json', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_events_time_idx')
    .on('audit_events')
    .columns(['occurred_at', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_events_kind_time_idx')
    .on('audit_events')
    .columns(['kind', 'occurred_at', 'id'])
    .execute();
}
