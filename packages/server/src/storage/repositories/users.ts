import { sql, type ExpressionBuilder, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type {
  EmailUserRecord,
  UserChanges,
  UserRecord,
  UserRepository,
  UserSearch,
} from '../../directory/repository.js';
import type { SessionUser } from '../../oauth/tokens/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { allColumns, fixedQuery, inTransaction } from '../fixed-query.js';
import { fetchNewestFirst } from '../paging.js';
import type { Database, UsersTable } from '../schema.js';
import { flag, takenOnConflict } from './partial-updates.js';
import { containsText, keyStartsWith } from './search.js';

function toRecord(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    displayName: row.displayName,
    email: row.email,
    emailKey: row.emailKey,
    emailVerified: row.emailVerified === 1,
    passwordHash: row.passwordHash,
    isOperator: row.isOperator === 1,
    active: row.active === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The user's columns a join selects, unrenamed, for {@link toSessionUser}. */
export const SESSION_USER_COLUMNS = ['displayName', 'email', 'emailVerified', 'active', 'updatedAt'] as const;

/** A session's user as a join reads it: the session's `userId` and {@link SESSION_USER_COLUMNS}. */
export function toSessionUser(
  row: Pick<Selectable<UsersTable>, (typeof SESSION_USER_COLUMNS)[number]> & {
    readonly userId: string;
  },
): SessionUser {
  return {
    id: row.userId,
    displayName: row.displayName,
    email: row.email,
    emailVerified: row.emailVerified === 1,
    active: row.active === 1,
    updatedAt: row.updatedAt,
  };
}

// Token grants and password sign-in read the user on every request: compiled once (storage/fixed-query.ts).
const USER_COLUMNS = allColumns<UsersTable>({
  id: true,
  displayName: true,
  email: true,
  emailKey: true,
  emailVerified: true,
  passwordHash: true,
  isOperator: true,
  active: true,
  createdAt: true,
  updatedAt: true,
  phoneE164: true,
  phoneVerified: true,
  customFieldsJson: true,
  signedInBefore: true,
});
const selectById = fixedQuery((db, p: { id: string }) =>
  db.selectFrom('users').select(USER_COLUMNS).where('id', '=', p.id),
);
const selectByEmailKey = fixedQuery((db, p: { emailKey: string }) =>
  db.selectFrom('users').select(USER_COLUMNS).where('emailKey', '=', p.emailKey),
);

/**
 * A user search over the columns of `table` (`users`, or its alias in a join): an email key that starts
 * with the folded prefix, a display name that contains the text, or the id itself.
 */
export function userSearchMatch(db: Db, search: UserSearch, table = 'users'): RawBuilder<SqlBool> {
  const email = keyStartsWith(`${table}.emailKey`, search.emailKeyPrefix);
  const name = containsText(db, `${table}.displayName`, search.text);
  return sql<SqlBool>`(${email} or ${name} or ${sql.ref(`${table}.id`)} = ${search.text})`;
}

async function writeUser(db: Db, id: string, changes: UserChanges, now: number) {
  const row = await db
    .updateTable('users')
    .set({
      displayName: changes.displayName,
      email: changes.email,
      emailKey: changes.emailKey,
      emailVerified: flag(changes.emailVerified),
      passwordHash: changes.passwordHash,
      isOperator: flag(changes.isOperator),
      active: flag(changes.active),
      updatedAt: now,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? undefined : toRecord(row);
}

const activeOperator = (eb: ExpressionBuilder<Database, 'users'>) =>
  eb.and([eb('isOperator', '=', 1), eb('active', '=', 1)]);

/**
 * Writes a change that may take the operator flag from an active operator, unless it is the last one.
 * The transaction's first statement touches every active operator's row (a write that changes nothing):
 * on PostgreSQL it holds their row locks, so that of two concurrent demotions the second waits, then no
 * longer counts the first one; on SQLite it takes the write lock.
 */
function writeKeepingAnOperator(db: Db, id: string, changes: UserChanges, now: number) {
  return inTransaction(db, async (tx) => {
    await tx
      .updateTable('users')
      .set((eb) => ({ updatedAt: eb.ref('updatedAt') }))
      .where(activeOperator)
      .execute();
    const operators = await tx.selectFrom('users').select('id').where(activeOperator).execute();
    if (operators.length === 1 && operators[0]?.id === id) return 'last_operator' as const;
    return writeUser(tx, id, changes, now);
  });
}

/** Users in the `users` table; the email key column is unique. */
export function userRepository(db: Db): UserRepository {
  const findById = async (id: string): Promise<UserRecord | undefined> => {
    const row = (await selectById(db, { id })).rows[0];
    return row === undefined ? undefined : toRecord(row);
  };

  return {
    async insertIfEmailFree(user, extras = {}) {
      try {
        await db
          .insertInto('users')
          .values({
            id: user.id,
            displayName: user.displayName,
            email: user.email,
            emailKey: user.emailKey,
            emailVerified: user.emailVerified ? 1 : 0,
            passwordHash: user.passwordHash,
            isOperator: user.isOperator ? 1 : 0,
            active: user.active ? 1 : 0,
            createdAt: user.createdAt,
            updatedAt: user.updatedAt,
            phoneE164: extras.phoneE164 ?? null,
            phoneVerified: extras.phoneVerified === true ? 1 : 0,
            customFieldsJson: extras.customFields == null ? null : JSON.stringify(extras.customFields),
          })
          .execute();
        return true;
      } catch (error) {
        // The id is random, so only the email key or the phone number can collide.
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    findById,

    async findByEmailKey(emailKey) {
      const row = (await selectByEmailKey(db, { emailKey })).rows[0];
      // Found by its key, so the row has an address.
      return row === undefined ? undefined : (toRecord(row) as EmailUserRecord);
    },

    async setOperator(id, now) {
      await db.updateTable('users').set({ isOperator: 1, updatedAt: now }).where('id', '=', id).execute();
      return findById(id);
    },

    update(id, changes, now) {
      // Only the email key can collide: the update never sets the id or the phone number.
      const demotes = changes.isOperator === false || changes.active === false;
      return takenOnConflict(() =>
        demotes ? writeKeepingAnOperator(db, id, changes, now) : writeUser(db, id, changes, now),
      );
    },

    async list(page) {
      // The page's ids first, from the columns of users_search_idx alone (SQLite then walks that index
      // without reading a row), then the rows of those ids: a search that matches few users walks them all.
      let query = db.selectFrom('users').select(['id', 'createdAt']);
      const { search, organizationId, active, emailKey } = page;
      if (search !== undefined) query = query.where(userSearchMatch(db, search));
      if (emailKey !== undefined) query = query.where('emailKey', '=', emailKey);
      if (active !== undefined) query = query.where('active', '=', active ? 1 : 0);
      if (organizationId !== undefined) {
        // IN rather than EXISTS: both databases then start from the organization's memberships.
        const members = db
          .selectFrom('memberships')
          .select('userId')
          .where('organizationId', '=', organizationId)
          .where('active', '=', 1);
        query = query.where('id', 'in', members);
      }
      const ids = await fetchNewestFirst(
        query,
        'createdAt',
        page,
        (row) => row.createdAt,
        (row) => row.id,
      );
      const rows =
        ids.data.length === 0
          ? []
          : await db.selectFrom('users').selectAll().where('id', 'in', ids.data).execute();
      const byId = new Map(rows.map((row) => [row.id, toRecord(row)]));
      return {
        data: ids.data.flatMap((id) => byId.get(id) ?? []),
        nextCursor: ids.nextCursor,
      };
    },
  };
}
