import type { UserMfaStore } from '../../directory/user-mfa-repository.js';
import type { Db } from '../database.js';
import { inTransaction } from '../fixed-query.js';

/** The operator's reads and resets of a user's TOTP authenticators and recovery codes. */
export function userMfaRepository(db: Db): UserMfaStore {
  return {
    async factors(userId, now) {
      const authenticators = await db
        .selectFrom('mfaAuthenticators')
        .select(['id', 'label', 'createdAt', 'confirmedAt'])
        .where('userId', '=', userId)
        .where((eb) => eb.or([eb('confirmedAt', 'is not', null), eb('enrollmentExpiresAt', '>', now)]))
        .orderBy('createdAt')
        .orderBy('id')
        .execute();
      const codes = await db
        .selectFrom('mfaRecoveryCodes')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('userId', '=', userId)
        .where('usedAt', 'is', null)
        .executeTakeFirstOrThrow();
      return { authenticators, recoveryCodesRemaining: Number(codes.n) };
    },

    reset: (userId) =>
      inTransaction(db, async (tx) => {
        const authenticators = await tx
          .deleteFrom('mfaAuthenticators')
          .where('userId', '=', userId)
          .executeTakeFirstOrThrow();
        const recoveryCodes = await tx
          .deleteFrom('mfaRecoveryCodes')
          .where('userId', '=', userId)
          .executeTakeFirstOrThrow();
        return {
          authenticators: Number(authenticators.numDeletedRows),
          recoveryCodes: Number(recoveryCodes.numDeletedRows),
        };
      }),
  };
}
