import type { Selectable } from 'kysely';
import type {
  EmailOtpChallengeRecord,
  MagicLinkRecord,
  PasswordlessStore,
  PendingSignupData,
} from '../../signin/methods/email-otp/repository.js';
import type { Db } from '../database.js';
import type { EmailOtpChallengesTable, MagicLinksTable } from '../schema.js';
import { attemptLimitedRows, singleUseRows } from '../single-use.js';

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

/** Email OTP challenges and magic links (0006, 0010), looked up by hash; single use (storage/single-use.ts). */
export function passwordlessRepository(db: Db): PasswordlessStore {
  const challenges = attemptLimitedRows(db, 'emailOtpChallenges', 'challengeHash');
  const links = singleUseRows(db, 'magicLinks', 'tokenHash');
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
      const row = await challenges.countAttempt(challengeHash, now, maxAttempts);
      return row === undefined ? undefined : toChallenge(row);
    },

    async consumeChallenge(challengeHash, now) {
      return (await challenges.consume(challengeHash, now)) !== undefined;
    },

    async insertMagicLink(record) {
      await db.insertInto('magicLinks').values(record).execute();
    },

    async findMagicLink(tokenHash, now) {
      const row = await links.findActive(tokenHash, now);
      return row === undefined ? undefined : toMagicLink(row);
    },

    async consumeMagicLink(tokenHash, now) {
      return (await links.consume(tokenHash, now)) !== undefined;
    },
  };
}
