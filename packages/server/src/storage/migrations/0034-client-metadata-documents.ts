import { sql, type Kysely } from 'kysely';

/**
 * Client ID Metadata Documents: a client whose id is the URL of its metadata document is stored like a
 * registered one, its fetch times in `registration_json`. `registration_method` says how a client that
 * described itself came to be (`dynamic`, `metadata_document`; null: an operator created it), so that
 * operators can list one kind. The registrations stored so far are dynamic. A nullable column: nodes of
 * the previous release keep reading and writing the table during a rolling upgrade (a registration they
 * store reads as dynamic, from its JSON).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('registration_method', 'text').execute();
  await sql`update clients set registration_method = 'dynamic' where registration_json is not null`.execute(
    db,
  );
}
