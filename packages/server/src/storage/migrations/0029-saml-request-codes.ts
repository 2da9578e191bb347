import type { Kysely } from 'kysely';

/**
 * The temporary codes of the direct SAML request-token flow (SSO StartAuthorizationAsync, then
 * ExchangeCodeAsync or POST /token/exchange): each stored only as the SHA-256 of the code, bound to the
 * client, the exact redirect URI and the PKCE challenge, used once before it expires. Times epoch-ms
 * `bigint`, like 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('saml_request_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', 'text', (c) =>
      c.notNull().references('sso_connections.id').onDelete('cascade'),
    )
    .addColumn('auth_time', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('saml_request_codes_expires_idx')
    .on('saml_request_codes')
    .column('expires_at')
    .execute();
}
