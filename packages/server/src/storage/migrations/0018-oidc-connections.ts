import type { Kysely } from 'kysely';

/**
 * OpenID / social provider connections (docs/reference/federation.md "OIDC and social connections"). The
 * settings are kept as the operator gave them (null = the provider's default, resolved when used); the client
 * secret and Apple's private key are sealed with the master key (AES-256-GCM, bound to the row's id); lists
 * and the claim mapping are JSON text, booleans 0/1 and times epoch-ms `bigint`, like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('oidc_connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider_type', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret_sealed', 'text')
    .addColumn('allowed_callback_uris_json', 'text', (c) => c.notNull())
    .addColumn('use_discovery', 'integer', (c) => c.notNull())
    .addColumn('discovery_url', 'text')
    .addColumn('issuer', 'text')
    .addColumn('authorization_endpoint', 'text')
    .addColumn('token_endpoint', 'text')
    .addColumn('user_info_endpoint', 'text')
    .addColumn('jwks_uri', 'text')
    .addColumn('microsoft_tenant', 'text')
    .addColumn('scopes_json', 'text', (c) => c.notNull())
    .addColumn('claim_mapping_json', 'text')
    .addColumn('client_auth_method', 'text', (c) => c.notNull())
    .addColumn('use_user_info', 'integer')
    .addColumn('apple_team_id', 'text')
    .addColumn('apple_key_id', 'text')
    .addColumn('apple_private_key_sealed', 'text')
    .addColumn('logo_data_url', 'text')
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // The operator list, newest first (keyset on created_at, id).
  await db.schema
    .createIndex('oidc_connections_created_idx')
    .on('oidc_connections')
    .columns(['created_at', 'id'])
    .execute();
}
