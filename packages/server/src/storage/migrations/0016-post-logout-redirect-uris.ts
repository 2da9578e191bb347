import { sql, type Kysely } from 'kysely';

/**
 * Clients list the URIs that RP-initiated logout may return to (`post_logout_redirect_uris`, OpenID
 * Connect RP-Initiated Logout 1.0 §3.1) as JSON text, like their redirect URIs. Existing clients get
 * none, and so do the rows that nodes of the previous release write during a rolling upgrade: the
 * constant default adds the column on PostgreSQL without rewriting the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table clients add column post_logout_redirect_uris_json text not null default '[]'`.execute(
    db,
  );
}
