import type { Kysely } from 'kysely';

/**
 * Multi-factor authentication (docs/reference/sign-in.md: the global MFA settings, the
 * organization MFA policy, the mfa and mfa_enrollment login states).
 *
 * - `mfa_policies`: the global settings (scope 'global') and each organization's policy (scope = the
 *   organization id) as JSON, so that both evolve without migrations of their own.
 * - `mfa_authenticators`: TOTP authenticators; the secret is sealed with the master key (AES-256-GCM);
 *   an unconfirmed one carries the hash of its enrollment token and, for challenge-bound enrollment,
 *   the hash of the MFA token it belongs to. `last_used_step` refuses a replayed code.
 * - `mfa_recovery_codes`: SHA-256 of each one-time recovery code.
 * - `mfa_challenges`: the persisted decision of one sign-in (EnrollmentRequired, methods) behind an MFA
 *   token (stored as SHA-256), with the identity to continue with, an attempts counter and single use.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('mfa_policies')
    .addColumn('scope', 'text', (c) => c.primaryKey())
    .addColumn('policy_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mfa_authenticators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('enrollment_token_hash', 'text', (c) => c.unique())
    .addColumn('challenge_hash', 'text')
    .addColumn('enrollment_expires_at', 'bigint')
    .addColumn('confirmed_at', 'bigint')
    .addColumn('last_used_step', 'bigint')
    // Wrong codes while enrolling (a self-enrollment has no challenge to count them).
    .addColumn('enrollment_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mfa_authenticators_user_idx')
    .on('mfa_authenticators')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('mfa_recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mfa_recovery_codes_user_idx')
    .on('mfa_recovery_codes')
    .columns(['user_id', 'code_hash'])
    .execute();

  await db.schema
    .createTable('mfa_challenges')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text')
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('context_json', 'text', (c) => c.notNull())
    .addColumn('enrollment_required', 'integer', (c) => c.notNull())
    .addColumn('methods_json', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('consumed_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('mfa_challenges_expires_idx')
    .on('mfa_challenges')
    .column('expires_at')
    .execute();
}
