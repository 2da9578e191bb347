import type { Kysely } from 'kysely';

/**
 * `users.signed_in_before`: 1 once housekeeping deleted a token or issuer session of the account. A
 * session of one's own is what makes an account the person's rather than only a directory's
 * (docs/decisions/scim-tenant-boundary.md), and housekeeping deletes sessions a day after they end; the
 * flag keeps that fact. Nullable: nodes of the previous release keep inserting users during a rolling
 * upgrade, and null reads as "not known to have signed in", as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('signed_in_before', 'integer').execute();
}
