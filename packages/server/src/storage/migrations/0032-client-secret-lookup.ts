import type { Kysely } from 'kysely';

/**
 * The direct helpers tell a confidential client's backend, which relays its users' challenge tokens with
 * `clientSecret` and no client id, from a caller guessing tokens, by looking the secret's hash up
 * (docs/decisions/handed-out-token-failures.md): an index, so that the look-up costs no scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('clients_secret_hash_idx').on('clients').column('client_secret_hash').execute();
}
