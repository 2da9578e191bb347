import type { Transaction } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

/**
 * The tables of short-lived secrets: one-time codes, links, tokens, issuer sessions and device
 * authorization requests, sign-ins in flight at providers, and the SSO setup portal's sessions, accepted SAML answers waiting for the browser and the request-token flow's codes, operator dashboard sessions, the SAML assertion ids already used (a
 * replay after the assertion's own expiry is refused as expired, so the id need not be kept longer).
 * Each row is useless once `expires_at` has passed (every lookup already refuses it), so keeping it only
 * grows the table. Children before parents: nothing here references another of these tables.
 */
export const EXPIRING_TABLES = [
  'emailOtpChallenges',
  'magicLinks',
  'phoneOtpChallenges',
  'passwordResetTokens',
  'emailVerificationTokens',
  'authorizationCodes',
  'pendingAuthTokens',
  'mfaChallenges',
  'browserSessions',
  'refreshTokens',
  'deviceAuthorizations',
  'oidcLoginStates',
  'calendarConsentStates',
  'samlAuthnRequests',
  'samlUsedAssertions',
  'ssoPortalSessions',
  'samlSignInHandles',
  'samlRequestCodes',
  'dashboardSessions',
] as const satisfies readonly (keyof Database)[];

export type ExpiringTable = (typeof EXPIRING_TABLES)[number];

/**
 * Deletes the rows of every expiring table whose expiry is before `before`; returns the count per table.
 * The caller passes a time some grace before now, so that a late replay of a just-expired code still
 * finds its row (and is answered as the reuse it is).
 */
export async function deleteExpiredRows(db: Db, before: number): Promise<Record<ExpiringTable, number>> {
  const counts = {} as Record<ExpiringTable, number>;
  await markSignedInBefore(db, 'browserSessions', before);
  for (const table of EXPIRING_TABLES) {
    // Every listed table has an `expires_at` epoch-ms column; Kysely cannot see that through the union.
    const result = await db
      .deleteFrom(table as 'magicLinks')
      .where('expiresAt', '<', before)
      .executeTakeFirst();
    counts[table] = Number(result.numDeletedRows);
  }
  return counts;
}

/** What {@link deleteExpiredSessions} deleted. */
export interface DeletedSessions {
  readonly sessions: number;
  /** Those sessions' refresh tokens that had not expired yet (a token may outlive the idle deadline). */
  readonly refreshTokens: number;
}

/**
 * Deletes the token sessions whose deadline is before `before`, with whatever refresh tokens they still
 * have, in one transaction. A session's idle deadline never passes its absolute one (both the first
 * issue and every refresh cap it), so it is the session's end; no refresh can move it once passed, so
 * nothing adds a token to a session being deleted.
 */
export async function deleteExpiredSessions(db: Db, before: number): Promise<DeletedSessions> {
  return db.transaction().execute(async (tx) => {
    const expired = tx.selectFrom('sessions').select('id').where('idleExpiresAt', '<', before);
    await markSignedInBefore(tx, 'sessions', before);
    const tokens = await tx.deleteFrom('refreshTokens').where('sessionId', 'in', expired).executeTakeFirst();
    const sessions = await tx.deleteFrom('sessions').where('idleExpiresAt', '<', before).executeTakeFirst();
    return { sessions: Number(sessions.numDeletedRows), refreshTokens: Number(tokens.numDeletedRows) };
  });
}

/**
 * Keeps, on the users whose sessions are about to be deleted, that they once signed in themselves: the
 * SCIM tenant rule counts a session of one's own for good (docs/decisions/scim-tenant-boundary.md).
 */
async function markSignedInBefore(
  db: Db | Transaction<Database>,
  table: 'sessions' | 'browserSessions',
  before: number,
): Promise<void> {
  const ending =
    table === 'sessions'
      ? db.selectFrom('sessions').select('userId').where('idleExpiresAt', '<', before)
      : db.selectFrom('browserSessions').select('userId').where('expiresAt', '<', before);
  await db
    .updateTable('users')
    .set({ signedInBefore: 1 })
    .where('id', 'in', ending)
    .where((eb) => eb.or([eb('signedInBefore', 'is', null), eb('signedInBefore', '!=', 1)]))
    .execute();
}
