import type {
  PhoneOtpChallengeRecord,
  PhoneOtpPurpose,
  PhoneOtpRepository,
  PhoneOtpSignupData,
} from '../../signin/methods/phone-otp/repository.js';
import type { Db } from '../database.js';
import type { PhoneOtpChallengesTable } from '../schema.js';
import { attemptLimitedRows } from '../single-use.js';

type ChallengeRow = Omit<PhoneOtpChallengesTable, 'attempts'> & { attempts: number };

function toRecord(row: ChallengeRow): PhoneOtpChallengeRecord {
  return {
    id: row.id,
    purpose: row.purpose as PhoneOtpPurpose,
    phoneE164: row.phoneE164,
    userId: row.userId,
    clientId: row.clientId,
    organizationId: row.organizationId,
    attempts: Number(row.attempts),
    signupTokenHash: row.signupTokenHash,
    signupData: row.signupDataJson === null ? null : (JSON.parse(row.signupDataJson) as PhoneOtpSignupData),
    createdAt: Number(row.createdAt),
    expiresAt: Number(row.expiresAt),
    consumedAt: row.consumedAt === null ? null : Number(row.consumedAt),
  };
}

/** Kysely implementation of PhoneOtpRepository (both dialects; counts are Number()-ed for PostgreSQL). */
export function phoneOtpRepository(db: Db): PhoneOtpRepository {
  const challenges = attemptLimitedRows(db, 'phoneOtpChallenges', 'challengeHash');
  return {
    async insert(challenge) {
      await db
        .insertInto('phoneOtpChallenges')
        .values({
          id: challenge.id,
          challengeHash: challenge.challengeHash,
          purpose: challenge.purpose,
          phoneE164: challenge.phoneE164,
          userId: challenge.userId,
          clientId: challenge.clientId,
          organizationId: challenge.organizationId,
          signupTokenHash: challenge.signupTokenHash,
          signupDataJson: challenge.signupData === null ? null : JSON.stringify(challenge.signupData),
          createdAt: challenge.createdAt,
          expiresAt: challenge.expiresAt,
          consumedAt: null,
        })
        .execute();
    },

    async findByHash(challengeHash) {
      const row = await db
        .selectFrom('phoneOtpChallenges')
        .selectAll()
        .where('challengeHash', '=', challengeHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async countAttempt(challengeHash, now, maxAttempts) {
      return (await challenges.countAttempt(challengeHash, now, maxAttempts)) !== undefined;
    },

    async consume(challengeHash, now) {
      return (await challenges.consume(challengeHash, now)) !== undefined;
    },

    async findAccountByPhone(e164) {
      const row = await db
        .selectFrom('users')
        .select(['id', 'active'])
        .where('phoneE164', '=', e164)
        .executeTakeFirst();
      return row === undefined ? undefined : { userId: row.id, active: Number(row.active) === 1 };
    },

    async setUserPhone(userId, e164, now) {
      await db
        .updateTable('users')
        .set({ phoneE164: e164, phoneVerified: 0, updatedAt: now })
        .where('id', '=', userId)
        .execute();
    },

    async markPhoneVerified(userId, e164, now) {
      await db
        .updateTable('users')
        .set({ phoneVerified: 1, updatedAt: now })
        .where('id', '=', userId)
        .where('phoneE164', '=', e164)
        .execute();
    },
  };
}
