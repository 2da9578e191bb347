import type { Kysely } from 'kysely';

/**
 * Phone OTP (docs/reference/sign-in.md, docs/reference/email-and-sms.md). The SMS verification provider
 * generates and checks the code (Twilio Verify), so a challenge row keeps no code at all: only the SHA-256
 * hash of the challenge token (and of the signup token for the signup variant), the E.164 number, the client
 * and organization the sign-in continues with, a local attempts counter (5 attempts:
 * docs/reference/limits.md), expiry and consumption. `user_id` is null when a login challenge was answered
 * for an unknown number (enumeration safety: the same answer, no SMS). Users gain a phone number (unique when
 * set) and its verified flag.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('phone_otp_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('challenge_hash', 'text', (c) => c.notNull().unique())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('phone_e164', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('signup_token_hash', 'text')
    .addColumn('signup_data_json', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  // For the cleanup of expired challenges.
  await db.schema
    .createIndex('phone_otp_challenges_expires_idx')
    .on('phone_otp_challenges')
    .column('expires_at')
    .execute();

  await db.schema.alterTable('users').addColumn('phone_e164', 'text').execute();
  await db.schema
    .alterTable('users')
    .addColumn('phone_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // A unique index allows any number of NULLs on both SQLite and PostgreSQL: only set numbers are unique.
  await db.schema.createIndex('users_phone_e164_unique').on('users').column('phone_e164').unique().execute();
}
