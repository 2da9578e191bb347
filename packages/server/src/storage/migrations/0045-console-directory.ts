import { sql, type Kysely } from 'kysely';

/**
 * What the operator console's directory and session pages read (docs/reference/operator-api.md "Lists"):
 *
 * - `authorization_codes.user_agent` and `ip_address`: the browser that completed the sign-in, carried
 *   to the token session the code's redemption creates. The redemption comes from the client's backend,
 *   whose address and agent say nothing about the user's device. Nullable: a code issued by a node of
 *   the previous release has neither, and its session then keeps none.
 * - `users_search_idx (created_at, id, email_key, display_name, active)` replaces `users_created_idx
 *   (created_at, id)`: the users list pages in the same order, and a search (an email prefix, a name that
 *   contains a term: no B-tree finds that) reads only this index on its way to a page, not every user
 *   row with its hash and fields. On SQLite that walk is about twice as fast.
 * - `memberships_org_created_idx (organization_id, created_at, id)`: an organization's member list in
 *   its newest-first order, so that a page of a large organization is a walk of this index rather than a
 *   sort of every membership. A user's memberships keep `memberships_user_idx`: a user has few.
 *
 * The sessions table has had `user_agent` and `ip_address` since it was created.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('authorization_codes').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('authorization_codes').addColumn('ip_address', 'text').execute();
  await db.schema
    .createIndex('users_search_idx')
    .on('users')
    .columns(['created_at', 'id', 'email_key', 'display_name', 'active'])
    .execute();
  await sql`drop index users_created_idx`.execute(db);
  await db.schema
    .createIndex('memberships_org_created_idx')
    .on('memberships')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
}
