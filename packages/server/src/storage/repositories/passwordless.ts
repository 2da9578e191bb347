import type { Selectable } from 'kysely';
import type {
  EmailOtpChallengeRecord,
  MagicLinkRecord,
  PasswordlessStore,
  PendingSignupData,
} from '../../passwordless/repository.js';
import type { Db } from '../database.js';
import { updatedRows } from '../fixed-query.js';
import type { EmailOtpChallengesTable, MagicLinksTable } from '../schema.js';

function toChallenge(row: Selectable<EmailOtpChallengesTable>): EmailOtpChallengeRecord {
  return {
    challengeHash: row.challengeHash,
    purpose: row.purpose === 'signup' ? 'signup' : 'login',
    emailKey: row.emailKey,
    clientId: row.clientId,
    organizationId: row.organizationId,
    codeHash: row.codeHash,
    attempts: Number(row.attempts),
    signupTokenHash: row.signupTokenHash,
    signup: row.signupJson === null ? null : (JSON.parse(row.signupJson) as PendingSignupData),
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    consumedAt: row.consumedAt === null ? null : Number(row.consumedAt),
  };
}

function toMagicLink(row: Selectable<MagicLinksTable>): MagicLinkRecord {
  return {
    tokenHash: row.tokenHash,
    userId: row.userId,
    clientId: row.clientId,
    organizationId: row.organizationId,
    authRequestId: row.authRequestId,
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    consumedAt: row.consumedAt === null ? null : Number(row.consumedAt),
  };
}

/** Email OTP challenges and magic links (0006, 0010), looked up by hash; single use by conditional UPDATE. */
export function passwordlessRepository(db: Db): PasswordlessStore {
  return {
    async insertChallenge(record) {
      await db
        .insertInto('emailOtpChallenges')
        .values({
          challengeHash: record.challengeHash,
          purpose: record.purpose,
          emailKey: record.emailKey,
          clientId: record.clientId,
          organizationId: record.organizationId,
          codeHash: record.codeHash,
          attempts: record.attempts,
          signupTokenHash: record.signupTokenHash,
          signupJson: record.signup === null ? null : JSON.stringify(record.signup),
          createdAt: record.createdAt,
          expiresAt: record.expiresAt,
          consumedAt: record.consumedAt,
        })
        .execute();
    },

    async findChallenge(challengeHash) {
      const row = await db
        .selectFrom('emailOtpChallenges')
        .selectAll()
        .where('challengeHash', '=', challengeHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toChallenge(row);
    },

    async countAttempt(challengeHash, now, maxAttempts) {
      // The increment and the limit check are one statement, so concurrent guesses cannot exceed the limit.
      const row = await db
        .updateTable('emailOtpChallenges')
        .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
        .where('challengeHash', '=', challengeHash)
        .where('consumedAt', 'is', null)
        .where('expiresAt', '>', now)
        .where('attempts', '<', maxAttempts)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toChallenge(row);
    },

    async consumeChallenge(challengeHash, now) {
      const result = await db
        .updateTable('emailOtpChallenges')
        .set({ consumedAt: now })
        .where('challengeHash', '=', challengeHash)
        .where('consumedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },

    async insertMagicLink(record) {
      await db.insertInto('magicLinks').values(record).execute();
    },

    async findMagicLink(tokenHash, now) {
      const row = await db
        .selectFrom('magicLinks')
        .selectAll()
        .where('tokenHash', '=', tokenHash)
        .where('consumedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return row === undefined ? undefined : toMagicLink(row);
    },

    async consumeMagicLink(tokenHash, now) {
      const result = await db
        .updateTable('magicLinks')
        .set({ consumedAt: now })
        .where('tokenHash', '=', tokenHash)
        .where('consumedAt', 'is', null)
        .where('expiresAt', '>', now)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },

    async markEmailVerified(userId, now) {
      await db
        .updateTable('users')
        .set({ emailVerified: 1, updatedAt: now })
        .where('id', '=', userId)
        .where('emailVerified', '=', 0)
        .execute();
    },
  };
}
