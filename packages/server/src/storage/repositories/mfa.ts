import type { SvcMfaSettings, SvcOrganizationMfaPolicy } from '@svc/contract';
import type { Selectable } from 'kysely';
import type {
  AuthenticatorRecord,
  AuthenticatorStore,
  MfaChallengeContext,
  MfaChallengeRecord,
  MfaChallengeStore,
  MfaPolicyStore,
  RecoveryCodeStore,
} from '../../signin/methods/mfa/repository.js';
import type { Db } from '../database.js';
import { allColumns, fixedQuery, updatedRows } from '../fixed-query.js';
import type { MfaAuthenticatorsTable, MfaChallengesTable } from '../schema.js';
import { attemptLimitedRows } from '../single-use.js';
import { parseStringList } from './json-columns.js';

const GLOBAL_SCOPE = 'global';

// Every sign-in reads these (the MFA gate): fixed queries, compiled once.
const selectPolicyQuery = fixedQuery((db, p: { scope: string }) =>
  db.selectFrom('mfaPolicies').select('policyJson').where('scope', '=', p.scope),
);

const AUTHENTICATOR_COLUMNS = allColumns<MfaAuthenticatorsTable>({
  id: true,
  userId: true,
  kind: true,
  label: true,
  secretSealed: true,
  enrollmentTokenHash: true,
  challengeHash: true,
  enrollmentExpiresAt: true,
  confirmedAt: true,
  lastUsedStep: true,
  enrollmentAttempts: true,
  createdAt: true,
});

const selectConfirmedQuery = fixedQuery((db, p: { userId: string }) =>
  db
    .selectFrom('mfaAuthenticators')
    .select(AUTHENTICATOR_COLUMNS)
    .where('userId', '=', p.userId)
    .where('confirmedAt', 'is not', null)
    .orderBy('confirmedAt')
    .orderBy('id'),
);

const countUnusedQuery = fixedQuery((db, p: { userId: string }) =>
  db
    .selectFrom('mfaRecoveryCodes')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('userId', '=', p.userId)
    .where('usedAt', 'is', null),
);

/** MFA settings (scope 'global') and organization policies (scope = organization id) as JSON rows. */
export function mfaPolicyRepository(db: Db): MfaPolicyStore {
  const read = async (scope: string): Promise<unknown> => {
    const row = (await selectPolicyQuery(db, { scope })).rows[0];
    return row === undefined ? undefined : JSON.parse(row.policyJson);
  };
  const save = async (scope: string, policy: object, now: number): Promise<void> => {
    const policyJson = JSON.stringify(policy);
    await db
      .insertInto('mfaPolicies')
      .values({ scope, policyJson, updatedAt: now })
      .onConflict((oc) => oc.column('scope').doUpdateSet({ policyJson, updatedAt: now }))
      .execute();
  };
  return {
    getSettings: async () => (await read(GLOBAL_SCOPE)) as SvcMfaSettings | undefined,
    saveSettings: (settings, now) => save(GLOBAL_SCOPE, settings, now),
    getOrganizationPolicy: async (organizationId) =>
      (await read(`org:${organizationId}`)) as SvcOrganizationMfaPolicy | undefined,
    saveOrganizationPolicy: (organizationId, policy, now) => save(`org:${organizationId}`, policy, now),
  };
}

function toAuthenticator(row: Selectable<MfaAuthenticatorsTable>): AuthenticatorRecord {
  return { ...row, kind: 'totp' };
}

/** TOTP authenticators; confirmation and step advance are conditional updates. */
export function authenticatorRepository(db: Db): AuthenticatorStore {
  return {
    async insert(record) {
      await db.insertInto('mfaAuthenticators').values(record).execute();
    },
    async listConfirmed(userId) {
      return (await selectConfirmedQuery(db, { userId })).rows.map(toAuthenticator);
    },
    async findEnrollment(enrollmentTokenHash, now) {
      const row = await db
        .selectFrom('mfaAuthenticators')
        .selectAll()
        .where('enrollmentTokenHash', '=', enrollmentTokenHash)
        .where('confirmedAt', 'is', null)
        .where('enrollmentExpiresAt', '>', now)
        .executeTakeFirst();
      return row === undefined ? undefined : toAuthenticator(row);
    },
    async findPendingForChallenge(challengeHash, now) {
      const row = await db
        .selectFrom('mfaAuthenticators')
        .selectAll()
        .where('challengeHash', '=', challengeHash)
        .where('confirmedAt', 'is', null)
        .where('enrollmentExpiresAt', '>', now)
        .executeTakeFirst();
      return row === undefined ? undefined : toAuthenticator(row);
    },
    async countEnrollmentAttempt(id, now, maxAttempts) {
      const result = await db
        .updateTable('mfaAuthenticators')
        .set((eb) => ({ enrollmentAttempts: eb('enrollmentAttempts', '+', 1) }))
        .where('id', '=', id)
        .where('confirmedAt', 'is', null)
        .where('enrollmentExpiresAt', '>', now)
        .where('enrollmentAttempts', '<', maxAttempts)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },
    async confirm(id, step, now) {
      const result = await db
        .updateTable('mfaAuthenticators')
        .set({ confirmedAt: now, lastUsedStep: step, enrollmentTokenHash: null, enrollmentExpiresAt: null })
        .where('id', '=', id)
        .where('confirmedAt', 'is', null)
        .where('enrollmentExpiresAt', '>', now)
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },
    async advanceStep(id, step) {
      const result = await db
        .updateTable('mfaAuthenticators')
        .set({ lastUsedStep: step })
        .where('id', '=', id)
        .where((eb) => eb.or([eb('lastUsedStep', 'is', null), eb('lastUsedStep', '<', step)]))
        .executeTakeFirst();
      return updatedRows(result) === 1;
    },
    async deleteUnconfirmed(userId) {
      await db
        .deleteFrom('mfaAuthenticators')
        .where('userId', '=', userId)
        .where('confirmedAt', 'is', null)
        .execute();
    },
  };
}

/** Recovery codes as SHA-256; use is a conditional update. */
export function recoveryCodeRepository(db: Db): RecoveryCodeStore {
  return {
    async replace(userId, codeHashes, now, newId) {
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('mfaRecoveryCodes').where('userId', '=', userId).execute();
        if (codeHashes.length === 0) return;
        await trx
          .insertInto('mfaRecoveryCodes')
          .values(
            codeHashes.map((codeHash) => ({ id: newId(), userId, codeHash, usedAt: null, createdAt: now })),
          )
          .execute();
      });
    },
    async use(userId, codeHash, now) {
      const result = await db
        .updateTable('mfaRecoveryCodes')
        .set({ usedAt: now })
        .where('userId', '=', userId)
        .where('codeHash', '=', codeHash)
        .where('usedAt', 'is', null)
        .executeTakeFirst();
      return updatedRows(result) >= 1;
    },
    async countUnused(userId) {
      return Number((await countUnusedQuery(db, { userId })).rows[0]?.n ?? 0);
    },
  };
}

function toChallenge(row: Selectable<MfaChallengesTable>): MfaChallengeRecord {
  return {
    tokenHash: row.tokenHash,
    userId: row.userId,
    clientId: row.clientId,
    organizationId: row.organizationId,
    flow: row.flow,
    context: JSON.parse(row.contextJson) as MfaChallengeContext,
    enrollmentRequired: row.enrollmentRequired === 1,
    methods: parseStringList(row.methodsJson),
    attempts: row.attempts,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    consumedAt: row.consumedAt,
  };
}

/** MFA challenges behind MFA tokens (hashed); attempts and use are single-use rows (storage/single-use.ts). */
export function mfaChallengeRepository(db: Db): MfaChallengeStore {
  const challenges = attemptLimitedRows(db, 'mfaChallenges', 'tokenHash');
  return {
    async insert(record) {
      await db
        .insertInto('mfaChallenges')
        .values({
          tokenHash: record.tokenHash,
          userId: record.userId,
          clientId: record.clientId,
          organizationId: record.organizationId,
          flow: record.flow,
          contextJson: JSON.stringify(record.context),
          enrollmentRequired: record.enrollmentRequired ? 1 : 0,
          methodsJson: JSON.stringify(record.methods),
          attempts: record.attempts,
          createdAt: record.createdAt,
          expiresAt: record.expiresAt,
          consumedAt: record.consumedAt,
        })
        .execute();
    },
    async findActive(tokenHash, now) {
      const row = await challenges.findActive(tokenHash, now);
      return row === undefined ? undefined : toChallenge(row);
    },
    async countAttempt(tokenHash, now, maxAttempts) {
      const row = await challenges.countAttempt(tokenHash, now, maxAttempts);
      return row === undefined ? undefined : toChallenge(row);
    },
    async consume(tokenHash, now) {
      const row = await challenges.consume(tokenHash, now);
      return row === undefined ? undefined : toChallenge(row);
    },
  };
}
