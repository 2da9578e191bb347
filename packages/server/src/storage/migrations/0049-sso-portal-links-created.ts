import type { Kysely } from 'kysely';

/**
 * `(created_at, id)` on sso_portal_links: the order of the list of every organization's setup links
 * (`GET /svc/admin/auth/api/sso-portal/sessions`), as 0046 gave the console-wide connection lists.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('sso_portal_links_created_idx')
    .on('sso_portal_links')
    .columns(['created_at', 'id'])
    .execute();
}
