import type { Kysely } from 'kysely';

/**
 * Device authorization requests (RFC 8628; docs/reference/tokens-and-sessions.md). The device code and the
 * user code are stored only as SHA-256 hashes; the user code hash is unique, so that a code typed by a
 * user names one request (a clash at insert draws another code). The status moves pending → approved |
 * denied, and approved → consumed when the one successful poll issues tokens; expiry is `expires_at`.
 * `interval_seconds` and `last_polled_at` carry the polling clock of RFC 8628 §3.5 across nodes.
 *
 * `auth_requests.sealed_device_user_code` marks the hosted sign-in a user starts at /device by typing a
 * user code: the code sealed under a key derived from the bound browser's id (never readable from
 * storage alone); null for every /authorize request.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_authorizations')
    .addColumn('device_code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('scope_json', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    // 'pending' | 'approved' | 'denied' | 'consumed'
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('last_polled_at', 'bigint')
    .addColumn('user_id', 'text', (c) => c.references('users.id'))
    .addColumn('organization_id', 'text')
    .addColumn('amr_json', 'text')
    .addColumn('auth_time', 'bigint')
    .addColumn('decided_at', 'bigint')
    .addColumn('consumed_at', 'bigint')
    .addColumn('session_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('device_authorizations_expires_idx')
    .on('device_authorizations')
    .column('expires_at')
    .execute();
  await db.schema.alterTable('auth_requests').addColumn('sealed_device_user_code', 'text').execute();
}
