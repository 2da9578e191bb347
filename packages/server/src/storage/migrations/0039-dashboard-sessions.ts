import { type Kysely } from 'kysely';

/**
 * Operator dashboard sessions (docs/reference/operator-api.md "Console sign-in and session": a server-side
 * session cookie authorizes the console's calls). The cookie's secret is stored only as its SHA-256; each row
 * names the token session of the dashboard client that the operator's sign-in created, so that revoking
 * that session (logout-all, a deactivation, the operators' session revocation) ends the dashboard session.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dashboard_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_session_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}
