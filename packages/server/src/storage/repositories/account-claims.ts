import type { AccountClaimStore, ClaimedAccountRemovals } from '../../directory/account-claim-repository.js';
import type { Db } from '../database.js';
import { inTransaction, updatedRows } from '../fixed-query.js';
import { revokedConnection } from './calendar-connections.js';

/** Authorization requests that passed the credential and can still end in a code. */
const PAST_THE_CREDENTIAL = ['organization_selection', 'mfa', 'consent', 'device_approval'] as const;

/** The tables of what an account holder set up to sign in with, by user. */
type UserRows = 'oidcIdentities' | 'samlIdentities' | 'mfaAuthenticators' | 'mfaRecoveryCodes';

/**
 * Claims of unverified accounts: one transaction whose first statement is the conditional update of the
 * user (unverified, active, this address), so that of concurrent claims exactly one removes anything and
 * the others change nothing (the row lock on PostgreSQL, the write lock on SQLite).
 */
export function accountClaimRepository(db: Db): AccountClaimStore {
  return {
    claim: (userId, emailKey, now) =>
      inTransaction(db, async (tx): Promise<ClaimedAccountRemovals | undefined> => {
        // The update sets no password yet, so RETURNING reads the one the claim removes next.
        const claimed = await tx
          .updateTable('users')
          .set({ emailVerified: 1, updatedAt: now })
          .where('id', '=', userId)
          .where('emailKey', '=', emailKey)
          .where('emailVerified', '=', 0)
          .where('active', '=', 1)
          .returning('passwordHash')
          .executeTakeFirst();
        if (claimed === undefined) return undefined;
        await tx.updateTable('users').set({ passwordHash: null }).where('id', '=', userId).execute();
        const removed = async (table: UserRows) =>
          Number(
            (await tx.deleteFrom(table).where('userId', '=', userId).executeTakeFirstOrThrow())
              .numDeletedRows,
          );
        return {
          passwordRemoved: claimed.passwordHash !== null,
          oidcIdentities: await removed('oidcIdentities'),
          samlIdentities: await removed('samlIdentities'),
          authenticators: await removed('mfaAuthenticators'),
          recoveryCodes: await removed('mfaRecoveryCodes'),
          signInsInFlight: await endSignInsInFlight(tx, userId, now),
          ...(await endWhatWasGranted(tx, userId, now)),
        };
      }),
  };
}

/**
 * Ends what a credential proved before the claim and could still turn into tokens; returns how many. An
 * unredeemed code is deleted rather than marked used, which /token would take for a replay.
 */
async function endSignInsInFlight(tx: Db, userId: string, now: number): Promise<number> {
  const statements = [
    () =>
      tx
        .updateTable('pendingAuthTokens')
        .set({ consumedAt: now })
        .where('userId', '=', userId)
        .where('consumedAt', 'is', null)
        .executeTakeFirstOrThrow(),
    () =>
      tx
        .updateTable('mfaChallenges')
        .set({ consumedAt: now })
        .where('userId', '=', userId)
        .where('consumedAt', 'is', null)
        .executeTakeFirstOrThrow(),
    () =>
      tx
        .updateTable('authRequests')
        .set({ status: 'denied', updatedAt: now, completedAt: now })
        .where('userId', '=', userId)
        .where('status', 'in', PAST_THE_CREDENTIAL)
        .executeTakeFirstOrThrow(),
    () =>
      tx
        .updateTable('deviceAuthorizations')
        .set({ status: 'denied', decidedAt: now })
        .where('userId', '=', userId)
        .where('status', '=', 'approved')
        .executeTakeFirstOrThrow(),
  ];
  let ended = 0;
  for (const statement of statements) ended += updatedRows(await statement());
  const codes = await tx
    .deleteFrom('authorizationCodes')
    .where('userId', '=', userId)
    .where('consumedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return ended + Number(codes.numDeletedRows);
}

/**
 * Revokes what the holder granted in the account's name: consents (an app would otherwise skip the
 * owner's consent) and calendar connections (another person's calendar on the owner's account). A
 * revoked calendar connection drops its sealed tokens, as an operator's revocation does.
 */
async function endWhatWasGranted(
  tx: Db,
  userId: string,
  now: number,
): Promise<Pick<ClaimedAccountRemovals, 'consentGrants' | 'calendarConnections'>> {
  const consents = await tx
    .updateTable('consentGrants')
    .set({ revokedAt: now, updatedAt: now })
    .where('userId', '=', userId)
    .where('revokedAt', 'is', null)
    .executeTakeFirstOrThrow();
  const calendars = await tx
    .updateTable('calendarConnections')
    .set(revokedConnection(now))
    .where('userId', '=', userId)
    .where('status', '!=', 'revoked')
    .executeTakeFirstOrThrow();
  return { consentGrants: updatedRows(consents), calendarConnections: updatedRows(calendars) };
}
