import type { Kysely } from 'kysely';

/**
 * Email OTP challenges and magic links (docs/reference/sign-in.md). Secrets
 * (challenge tokens, codes, link tokens, signup tokens) are stored only as SHA-256 hashes and looked up by
 * hash. Portable as 0001: epoch-ms `bigint` times, text ids.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_otp_challenges')
    .addColumn('challenge_hash', 'text', (c) => c.primaryKey())
    // 'login' | 'signup'
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    // null when nothing can verify (an unknown email at login): the challenge exists only to look alike.
    .addColumn('code_hash', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('signup_token_hash', 'text')
    .addColumn('signup_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('email_otp_challenges_expires_idx')
    .on('email_otp_challenges')
    .column('expires_at')
    .execute();

  await db.schema
    .createTable('magic_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema.createIndex('magic_links_expires_idx').on('magic_links').column('expires_at').execute();
}
