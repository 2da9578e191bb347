import type { Kysely } from 'kysely';

/**
 * The operator's session revocations that named an `operationId` (docs/reference/operator-api.md
 * "Revocation": an operation id cannot be reused for a different selector or reason): the selector as
 * canonical JSON, the reason, and the counts the execution answered, so that a retry gets the same answer
 * without a second revocation. The row is claimed first in the revoking transaction (a concurrent retry waits
 * on its key) and its result written last, so `result_json` is null only inside that transaction. No foreign
 * keys: housekeeping deletes expired sessions, users may go, the record stays. Times epoch-ms `bigint`, like
 * 0001.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('session_revocation_operations')
    .addColumn('operation_id', 'text', (c) => c.primaryKey())
    .addColumn('selector_json', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('result_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
