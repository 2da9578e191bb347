import type { Selectable } from 'kysely';
import type {
  ScopeDisplayNameRecord,
  ScopeDisplayNameRepository,
} from '../../oauth/scope-display-names/repository.js';
import type { Db } from '../database.js';
import type { ScopeDisplayNamesTable } from '../schema.js';

function toRecord(row: Selectable<ScopeDisplayNamesTable>): ScopeDisplayNameRecord {
  return {
    id: row.id,
    scope: row.scope,
    displayName: row.displayName,
    description: row.description,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Scope display names in `scope_display_names`; the unique scope index decides a race between creates. */
export function scopeDisplayNameRepository(db: Db): ScopeDisplayNameRepository {
  return {
    async insertIfScopeFree(record) {
      const row = await db
        .insertInto('scopeDisplayNames')
        .values(record)
        .onConflict((conflict) => conflict.column('scope').doNothing())
        .returning('id')
        .executeTakeFirst();
      return row !== undefined;
    },

    async list() {
      const rows = await db.selectFrom('scopeDisplayNames').selectAll().execute();
      return rows.map(toRecord);
    },

    async findByScopes(scopes) {
      if (scopes.length === 0) return [];
      const rows = await db
        .selectFrom('scopeDisplayNames')
        .selectAll()
        .where('scope', 'in', [...scopes])
        .execute();
      return rows.map(toRecord);
    },

    async update(id, texts, now) {
      const row = await db
        .updateTable('scopeDisplayNames')
        .set({ displayName: texts.displayName, description: texts.description, updatedAt: now })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async delete(id) {
      const row = await db
        .deleteFrom('scopeDisplayNames')
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },
  };
}
