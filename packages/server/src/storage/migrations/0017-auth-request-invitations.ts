import type { Kysely } from 'kysely';

/**
 * `auth_requests.invitation_id`: the invitation an authorization request is bound to (`/authorize`'s
 * `invitation_token`, docs/reference/sign-in.md). Only the invitation's id is stored, never its token; null
 * for every request started without one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_requests').addColumn('invitation_id', 'text').execute();
}
