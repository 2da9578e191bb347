import { sql, type Kysely } from 'kysely';

/**
 * When a client that described itself (a registration or a metadata document) first got tokens; null
 * until then. Housekeeping deletes such clients that were never used (docs/reference/oauth-clients.md "Self-described clients"),
 * so the ones stored before this column existed count as used: nothing an operator already has is taken.
 * A nullable column: nodes of the previous release keep reading and writing the table during a rolling upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('first_used_at', 'bigint').execute();
  await sql`update clients set first_used_at = created_at where registration_json is not null`.execute(db);
}
