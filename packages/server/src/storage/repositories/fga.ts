import type { FgaGrantRecord, FgaRepository, FgaWrites } from '../../fga/repository.js';
import type { Db } from '../database.js';
import { fixedQuery } from '../fixed-query.js';
import { idChunks } from '../id-chunks.js';
import { fgaReads, toGrant } from './fga-reads.js';

const selectVersion = fixedQuery((db) => db.selectFrom('fgaState').select('version').where('id', '=', 1));

/** Writes of the FGA model inside the transaction `tx`. */
function fgaWrites(tx: Db): FgaWrites {
  return {
    ...fgaReads(tx),

    async insertDefinition(record) {
      const { permissionKeys, ...columns } = record;
      const result = await tx
        .insertInto('fgaDefinitions')
        .values({
          ...columns,
          permissionKeysJson: record.kind === 'role' ? JSON.stringify(permissionKeys) : null,
        })
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async updateDefinition(id, changes) {
      const { permissionKeys, ...columns } = changes;
      await tx
        .updateTable('fgaDefinitions')
        .set({
          ...columns,
          ...(permissionKeys === undefined ? {} : { permissionKeysJson: JSON.stringify(permissionKeys) }),
        })
        .where('id', '=', id)
        .execute();
    },

    async deleteDefinition(id) {
      await tx.deleteFrom('fgaDefinitions').where('id', '=', id).execute();
    },

    async insertResource(record) {
      await tx.insertInto('fgaResources').values(record).execute();
    },

    async updateResource(id, changes) {
      await tx.updateTable('fgaResources').set(changes).where('id', '=', id).execute();
    },

    async deleteResource(id) {
      await tx.deleteFrom('fgaResources').where('id', '=', id).execute();
    },

    async insertSubject(record) {
      await tx.insertInto('fgaSubjects').values(record).execute();
    },

    async renameSubject(id, name, updatedAt) {
      await tx.updateTable('fgaSubjects').set({ name, updatedAt }).where('id', '=', id).execute();
    },

    async deleteSubject(id) {
      await tx.deleteFrom('fgaGroupMembers').where('groupId', '=', id).execute();
      await tx.deleteFrom('fgaSubjects').where('id', '=', id).execute();
    },

    async addGroupMember(record) {
      const result = await tx
        .insertInto('fgaGroupMembers')
        .values(record)
        .onConflict((conflict) => conflict.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    async removeGroupMember(groupId, userId) {
      const result = await tx
        .deleteFrom('fgaGroupMembers')
        .where('groupId', '=', groupId)
        .where('userId', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    async insertGrant(record) {
      const { subject, ...columns } = record;
      await tx
        .insertInto('fgaGrants')
        .values({ ...columns, subjectType: subject.type, subjectId: subject.id })
        .execute();
    },

    async deleteGrants(filter) {
      const { ids, ...where } = filter;
      const deleteWhere = async (idIn?: readonly string[]) => {
        let query = tx.deleteFrom('fgaGrants');
        if (where.id !== undefined) query = query.where('id', '=', where.id);
        if (idIn !== undefined) query = query.where('id', 'in', idIn);
        if (where.subjectId !== undefined) query = query.where('subjectId', '=', where.subjectId);
        if (where.resourceId !== undefined) query = query.where('resourceId', '=', where.resourceId);
        if (where.managedBy !== undefined) query = query.where('managedBy', '=', where.managedBy);
        const rows = await query.returningAll().execute();
        return rows.map(toGrant);
      };
      if (ids === undefined) return deleteWhere();
      const deleted: FgaGrantRecord[] = [];
      for (const chunk of idChunks(ids)) deleted.push(...(await deleteWhere(chunk)));
      return deleted;
    },
  };
}

/** The FGA model's storage (fga/repository.ts) on SQLite or PostgreSQL. */
export function fgaRepository(db: Db): FgaRepository {
  return {
    ...fgaReads(db),

    write(work) {
      return db.transaction().execute(async (tx) => {
        // First, so that the row lock orders every writer (PostgreSQL; SQLite has one writer anyway).
        await tx
          .updateTable('fgaState')
          .set((eb) => ({ version: eb('version', '+', 1) }))
          .where('id', '=', 1)
          .execute();
        return work(fgaWrites(tx));
      });
    },

    async version() {
      const { rows } = await selectVersion(db, {});
      return Number(rows[0]?.version ?? 0);
    },
  };
}
