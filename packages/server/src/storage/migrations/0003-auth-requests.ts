import type { Kysely } from 'kysely';

/**
 * Authorization requests of the hosted /authorize flow, between the client's redirect to /authorize and
 * the redirect back with a code. Portable as 0001: epoch-ms `bigint` times, JSON as text. No secret is
 * stored: the browser binding is the SHA-256 of the browser's id, the request id is an identifier bound
 * to that browser.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('auth_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('state', 'text')
    .addColumn('requested_scopes_json', 'text', (c) => c.notNull())
    .addColumn('granted_scopes_json', 'text', (c) => c.notNull())
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('code_challenge_method', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    .addColumn('nonce', 'text')
    .addColumn('prompt_json', 'text', (c) => c.notNull())
    .addColumn('max_age', 'bigint')
    .addColumn('login_hint', 'text')
    .addColumn('requested_view', 'text')
    .addColumn('ui_context', 'text')
    .addColumn('browser_binding', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id'))
    .addColumn('amr_json', 'text')
    .addColumn('auth_time', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('completed_at', 'bigint')
    .execute();
  // For the cleanup of expired requests.
  await db.schema.createIndex('auth_requests_expires_idx').on('auth_requests').column('expires_at').execute();
}
