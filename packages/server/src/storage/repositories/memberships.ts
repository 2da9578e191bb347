import type { Page } from '@svc/contract';
import type { Selectable, SelectQueryBuilder } from 'kysely';
import type { ListQuery, MembershipRecord, MembershipRepository } from '../../directory/repository.js';
import type { Db } from '../database.js';
import { fixedQuery } from '../fixed-query.js';
import { fetchNewestFirst } from '../paging.js';
import type { MembershipsTable } from '../schema.js';
import { flag } from './partial-updates.js';
import { userSearchMatch } from './users.js';

function toRecord(row: Selectable<MembershipsTable>): MembershipRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    userId: row.userId,
    role: row.role,
    active: row.active === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The membership's columns under their own names, for a list that joins another table. */
const MEMBERSHIP_COLUMNS = [
  'm.id as id',
  'm.organizationId as organizationId',
  'm.userId as userId',
  'm.role as role',
  'm.active as active',
  'm.createdAt as createdAt',
  'm.updatedAt as updatedAt',
] as const;

/** A page of memberships (`m`) joined to another table, newest first, each with what `joined` reads. */
function newestMemberships<DB, TB extends keyof DB, Row extends Selectable<MembershipsTable>, J>(
  query: SelectQueryBuilder<DB, TB, Row>,
  page: ListQuery,
  joined: (row: Row) => J,
): Promise<Page<MembershipRecord & J>> {
  const map = (row: Row) => ({ ...toRecord(row), ...joined(row) });
  return fetchNewestFirst(query, 'm.createdAt', page, (row) => row.createdAt, map, 'm.id');
}

// Every sign-in reads these (the organization policy and the MFA gate): fixed queries, compiled once.
const listUserOrganizationsQuery = fixedQuery((db, p: { userId: string }) =>
  db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organizationId')
    .select(['o.id as id', 'o.slug as slug', 'o.name as name', 'm.role as role'])
    .where('m.userId', '=', p.userId)
    .where('m.active', '=', 1)
    .where('o.active', '=', 1)
    .orderBy('o.name')
    .orderBy('o.id'),
);

const activeMembershipQuery = fixedQuery((db, p: { userId: string; organizationId: string }) =>
  db
    .selectFrom('memberships as m')
    .innerJoin('organizations as o', 'o.id', 'm.organizationId')
    .select('m.id')
    .where('m.userId', '=', p.userId)
    .where('m.organizationId', '=', p.organizationId)
    .where('m.active', '=', 1)
    .where('o.active', '=', 1),
);

/** Memberships in the `memberships` table, unique per (organization, user). */
export function membershipRepository(db: Db): MembershipRepository {
  return {
    async upsert(membership) {
      // ON CONFLICT … DO UPDATE … RETURNING works on SQLite ≥ 3.35 and PostgreSQL alike, and is one
      // statement, so two concurrent creations end with one row and both callers see it.
      const row = await db
        .insertInto('memberships')
        .values({
          id: membership.id,
          organizationId: membership.organizationId,
          userId: membership.userId,
          role: membership.role,
          active: membership.active ? 1 : 0,
          createdAt: membership.createdAt,
          updatedAt: membership.updatedAt,
        })
        .onConflict((oc) =>
          oc.columns(['organizationId', 'userId']).doUpdateSet({
            role: membership.role,
            active: membership.active ? 1 : 0,
            updatedAt: membership.updatedAt,
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    async find(organizationId, userId) {
      const row = await db
        .selectFrom('memberships')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('userId', '=', userId)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async listUserOrganizations(userId) {
      return (await listUserOrganizationsQuery(db, { userId })).rows;
    },

    async hasActiveMembership(userId, organizationId) {
      return (await activeMembershipQuery(db, { userId, organizationId })).rows.length > 0;
    },

    async findById(id) {
      const row = await db.selectFrom('memberships').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    listForOrganization(organizationId, page) {
      let query = db
        .selectFrom('memberships as m')
        .innerJoin('users as u', 'u.id', 'm.userId')
        .select([...MEMBERSHIP_COLUMNS, 'u.email as userEmail', 'u.displayName as userDisplayName'])
        .where('m.organizationId', '=', organizationId);
      if (page.search !== undefined) query = query.where(userSearchMatch(db, page.search, 'u'));
      if (page.active !== undefined) query = query.where('m.active', '=', page.active ? 1 : 0);
      return newestMemberships(query, page, (row) => ({
        user: { id: row.userId, email: row.userEmail, displayName: row.userDisplayName },
      }));
    },

    listForUser(userId, page) {
      const query = db
        .selectFrom('memberships as m')
        .innerJoin('organizations as o', 'o.id', 'm.organizationId')
        .select([...MEMBERSHIP_COLUMNS, 'o.name as organizationName', 'o.slug as organizationSlug'])
        .where('m.userId', '=', userId);
      return newestMemberships(query, page, (row) => ({
        organization: { id: row.organizationId, name: row.organizationName, slug: row.organizationSlug },
      }));
    },

    async update(id, changes, now) {
      const row = await db
        .updateTable('memberships')
        .set({ role: changes.role, active: flag(changes.active), updatedAt: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
  };
}
