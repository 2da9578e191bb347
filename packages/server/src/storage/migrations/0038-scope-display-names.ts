import type { Kysely } from 'kysely';

/**
 * The operators' (dashboard-owned) scope display names, shown at consent
 * (docs/reference/tokens-and-sessions.md, scope display names); the host's code-owned entries live in its
 * options, not here. One entry per scope: the unique index decides a race between two creates. 0036 and 0037
 * belong to a sibling branch.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scope_display_names')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('scope_display_names_scope_key')
    .on('scope_display_names')
    .column('scope')
    .unique()
    .execute();
}
