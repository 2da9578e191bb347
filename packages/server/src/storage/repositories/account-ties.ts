import type { AccountTie, AccountTieRepository } from '../../directory/account-ties-repository.js';
import type { Db } from '../database.js';

/**
 * The tables of the credential rule: an account with a row in one of them signs in by a means of its own.
 * A passkey table joins this list when Svc stores passkeys.
 */
const CREDENTIAL_TABLES = ['mfaAuthenticators'] as const;
const IDENTITY_TABLES = ['oidcIdentities', 'samlIdentities'] as const;
/**
 * Sessions of any state: a revoked or expired one was still the person's own sign-in, and so was one that
 * housekeeping deleted since (`users.signed_in_before`, storage/expired-rows.ts).
 */
const SESSION_TABLES = ['sessions', 'browserSessions'] as const;

/** A boolean as either database answers it (PostgreSQL `true`, SQLite `1`). */
const yes = (value: unknown): boolean => value === true || value === 1;

/** Each tie of an account, read in one statement of EXISTS look-ups on the tables' user indexes. */
export function accountTieRepository(db: Db): AccountTieRepository {
  return {
    async tiesOf(userId, { organizationId, scimConnectionId }) {
      const row = await db
        .selectFrom('users')
        .where('id', '=', userId)
        .select((eb) => {
          const anyRowIn = (tables: readonly string[]) =>
            eb.or(
              tables.map((table) =>
                eb.exists(
                  eb
                    .selectFrom(table as 'sessions')
                    .select('id')
                    .where('userId', '=', userId),
                ),
              ),
            );
          return [
            'isOperator',
            eb
              .or([
                eb('passwordHash', 'is not', null),
                eb('phoneE164', 'is not', null),
                anyRowIn(CREDENTIAL_TABLES),
              ])
              .as('credential'),
            anyRowIn(IDENTITY_TABLES).as('identity'),
            eb
              .or([
                eb('signedInBefore', '=', 1),
                anyRowIn(SESSION_TABLES),
                eb.exists(
                  eb
                    .selectFrom('consentGrants')
                    .select('id')
                    .where('userId', '=', userId)
                    .where('revokedAt', 'is', null),
                ),
              ])
              .as('session'),
            eb
              .exists(
                eb
                  .selectFrom('memberships')
                  .select('id')
                  .where('userId', '=', userId)
                  .where('organizationId', '!=', organizationId),
              )
              .as('membership'),
            eb
              .exists(
                eb
                  .selectFrom('scimUsers')
                  .select('userId')
                  .where('userId', '=', userId)
                  .where('connectionId', '!=', scimConnectionId),
              )
              .as('directory'),
          ];
        })
        .executeTakeFirst();
      if (row === undefined) return [];
      const ties: [AccountTie, unknown][] = [
        ['operator', row.isOperator],
        ['credential', row.credential],
        ['identity', row.identity],
        ['session', row.session],
        ['membership', row.membership],
        ['directory', row.directory],
      ];
      return ties.filter(([, present]) => yes(present)).map(([tie]) => tie);
    },
  };
}
