import type { Kysely } from 'kysely';

/**
 * Dynamic client registration (RFC 7591, `POST /register`): what a registered client said of itself
 * (client_uri, logo_uri, software_id, software_version) as JSON, and null for a client an operator
 * created. Discovery's scopes_supported reads only the clients with null here
 * (docs/decisions/dynamic-client-registration.md). A nullable column: nodes of the previous release
 * keep reading and writing the table during a rolling upgrade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('registration_json', 'text').execute();
}
