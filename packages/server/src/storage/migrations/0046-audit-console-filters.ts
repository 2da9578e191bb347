import { sql, type Kysely } from 'kysely';

/** The record-id columns the audit list filters on, each with its own index. */
const FILTERED_COLUMNS = ['actor_id', 'organization_id', 'user_id', 'client_id', 'subject_id'] as const;

/**
 * What the operator console reads (docs/reference/events.md "Reading events"):
 * - `audit_events.subject_id`, the record an event is about, filled by the audit writer from now on.
 *   Nullable: older rows have none, and nodes of the previous release keep inserting without it during
 *   a rolling upgrade.
 * - One index per filtered id column, `(column, occurred_at, id)`, so that a filter seeks its events in
 *   the list's order (newest first, keyset on occurred_at and id) instead of walking the whole log. Each
 *   is partial (`is not null`): most events name only some of these records, and an equality filter
 *   implies the condition on both databases.
 * - `(created_at, id)` on sso_connections and scim_connections, the order of their console-wide lists.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('audit_events').addColumn('subject_id', 'text').execute();
  for (const column of FILTERED_COLUMNS) {
    await db.schema
      .createIndex(`audit_events_${column.replace(/_id$/, '')}_time_idx`)
      .on('audit_events')
      .columns([column, 'occurred_at', 'id'])
      .where(sql.ref(column), 'is not', null)
      .execute();
  }
  for (const table of ['sso_connections', 'scim_connections']) {
    await db.schema.createIndex(`${table}_created_idx`).on(table).columns(['created_at', 'id']).execute();
  }
}
