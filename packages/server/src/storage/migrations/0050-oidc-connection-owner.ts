import type { Kysely } from 'kysely';

/**
 * `oidc_connections.owner`: `dashboard` for connections made through the operator API (every existing
 * row), `code` for those seeded from `createSvc({ oidc })`, which the operator API reads but cannot change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oidc_connections')
    .addColumn('owner', 'text', (c) => c.notNull().defaultTo('dashboard'))
    .execute();
}
