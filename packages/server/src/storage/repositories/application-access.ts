import type { Selectable } from 'kysely';
import type { AssignmentEffect, AssignmentPrincipalType } from '@svc/contract';
import {
  principalKey,
  type ApplicationAccessRepository,
  type AssignmentRecord,
} from '../../applications/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { idChunks } from '../id-chunks.js';
import type { ApplicationAccessAssignmentsTable } from '../schema.js';

function toRecord(row: Selectable<ApplicationAccessAssignmentsTable>): AssignmentRecord {
  return {
    id: row.id,
    clientId: row.clientId,
    principalType: row.principalType as AssignmentPrincipalType,
    principalId: row.principalId,
    organizationId: row.organizationId,
    roleKey: row.roleKey,
    // An effect a newer version wrote reads as a deny: an unknown rule never lets anyone in.
    effect: (row.effect === 'allow' ? 'allow' : 'deny') as AssignmentEffect,
    createdAt: row.createdAt,
  };
}

/** Application access in `application_access_assignments` and the clients' `access_*` columns. */
export function applicationAccessRepository(db: Db): ApplicationAccessRepository {
  return {
    async listAssignments(clientId) {
      const rows = await db
        .selectFrom('applicationAccessAssignments')
        .selectAll()
        .where('clientId', '=', clientId)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toRecord);
    },

    async listNamedAssignments(clientId) {
      // Each principal type names a row of another table: at most one of the joins matches, each by key.
      const rows = await db
        .selectFrom('applicationAccessAssignments as a')
        .leftJoin('users as u', (join) =>
          join.onRef('u.id', '=', 'a.principalId').on('a.principalType', '=', 'user'),
        )
        .leftJoin('organizations as o', (join) =>
          join.onRef('o.id', '=', 'a.organizationId').on('a.principalType', 'in', ['organization', 'role']),
        )
        .leftJoin('fgaSubjects as f', (join) =>
          join.onRef('f.id', '=', 'a.principalId').onRef('f.type', '=', 'a.principalType'),
        )
        .selectAll('a')
        .select([
          'u.displayName as userName',
          'u.email as userEmail',
          'o.name as organizationName',
          'o.slug as organizationSlug',
          'f.name as subjectName',
        ])
        .where('a.clientId', '=', clientId)
        .orderBy('a.createdAt', 'desc')
        .orderBy('a.id', 'desc')
        .execute();
      return rows.map(({ userName, userEmail, organizationName, organizationSlug, subjectName, ...row }) => {
        const name = userName ?? organizationName ?? subjectName;
        return {
          ...toRecord(row),
          principal:
            name === null
              ? null
              : { name, email: userName === null ? null : userEmail, slug: organizationSlug },
        };
      });
    },

    async listAssignmentsOf(clientIds) {
      const out: AssignmentRecord[] = [];
      for (const chunk of idChunks(clientIds)) {
        const rows = await db
          .selectFrom('applicationAccessAssignments')
          .selectAll()
          .where('clientId', 'in', chunk)
          .execute();
        out.push(...rows.map(toRecord));
      }
      return out;
    },

    async insertAssignment(record) {
      try {
        return await db.transaction().execute(async (tx) => {
          const counted = await tx
            .updateTable('clients')
            .set((eb) => ({ accessAssignments: eb('accessAssignments', '+', 1) }))
            .where('clientId', '=', record.clientId)
            .executeTakeFirst();
          if (counted.numUpdatedRows === 0n) return false;
          await tx
            .insertInto('applicationAccessAssignments')
            .values({ ...record, principalKey: principalKey(record) })
            .execute();
          return true;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async deleteAssignment(clientId, id) {
      return db.transaction().execute(async (tx) => {
        const deleted = await tx
          .deleteFrom('applicationAccessAssignments')
          .where('clientId', '=', clientId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        if (deleted === undefined) return undefined;
        await tx
          .updateTable('clients')
          .set((eb) => ({ accessAssignments: eb('accessAssignments', '-', 1) }))
          .where('clientId', '=', clientId)
          .execute();
        return toRecord(deleted);
      });
    },

    async setMode(clientId, mode, now) {
      const result = await db
        .updateTable('clients')
        .set({ accessMode: mode, updatedAt: now })
        .where('clientId', '=', clientId)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async userGroupIds(userId) {
      const rows = await db
        .selectFrom('fgaGroupMembers')
        .select('groupId')
        .where('userId', '=', userId)
        .execute();
      return new Set(rows.map((row) => row.groupId));
    },

    async membershipRole(userId, organizationId) {
      const row = await db
        .selectFrom('memberships as m')
        .innerJoin('organizations as o', 'o.id', 'm.organizationId')
        .select('m.role')
        .where('m.userId', '=', userId)
        .where('m.organizationId', '=', organizationId)
        .where('m.active', '=', 1)
        .where('o.active', '=', 1)
        .executeTakeFirst();
      return row?.role ?? null;
    },

    async findPrincipal(kind, id) {
      if (kind === 'user') {
        const user = await db
          .selectFrom('users')
          .select(['displayName', 'email'])
          .where('id', '=', id)
          .executeTakeFirst();
        return user === undefined ? undefined : { name: user.displayName, email: user.email, slug: null };
      }
      if (kind === 'organization') {
        const organization = await db
          .selectFrom('organizations')
          .select(['name', 'slug'])
          .where('id', '=', id)
          .executeTakeFirst();
        return organization === undefined ? undefined : { ...organization, email: null };
      }
      const subject = await db
        .selectFrom('fgaSubjects')
        .select('name')
        .where('id', '=', id)
        .where('type', '=', kind)
        .executeTakeFirst();
      return subject === undefined ? undefined : { name: subject.name, email: null, slug: null };
    },
  };
}
