import type { Selectable } from 'kysely';
import type { OrganizationRecord, OrganizationRepository } from '../../directory/repository.js';
import { isUniqueViolation, type Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { OrganizationsTable } from '../schema.js';
import { flag, takenOnConflict } from './partial-updates.js';
import { nameKeyOrId } from './search.js';

function toRecord(row: Selectable<OrganizationsTable>): OrganizationRecord {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    primaryDomain: row.primaryDomain,
    active: row.active === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Organizations in the `organizations` table. */
export function organizationRepository(db: Db): OrganizationRepository {
  return {
    async insertIfSlugFree(org) {
      try {
        await db
          .insertInto('organizations')
          .values({
            id: org.id,
            name: org.name,
            slug: org.slug,
            primaryDomain: org.primaryDomain,
            active: org.active ? 1 : 0,
            createdAt: org.createdAt,
            updatedAt: org.updatedAt,
          })
          .execute();
        return true;
      } catch (error) {
        // The id is random, so the only unique key that can collide is the slug.
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },

    async findById(id) {
      const row = await db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async findBySlug(slug) {
      const row = await db
        .selectFrom('organizations')
        .selectAll()
        .where('slug', '=', slug)
        .executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async slugsLike(base) {
      // Slugs hold only [a-z0-9-], so `base` carries no LIKE wildcard.
      const rows = await db
        .selectFrom('organizations')
        .select('slug')
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
        .execute();
      return rows.map((row) => row.slug);
    },

    update(id, changes, now) {
      // The slug is the only unique key an update can set.
      return takenOnConflict(async () => {
        const row = await db
          .updateTable('organizations')
          .set({
            name: changes.name,
            slug: changes.slug,
            primaryDomain: changes.primaryDomain,
            active: flag(changes.active),
            updatedAt: now,
          })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirst();
        return row === undefined ? undefined : toRecord(row);
      });
    },

    list(page) {
      let query = db.selectFrom('organizations').selectAll();
      const { search, active } = page;
      if (search !== undefined) query = query.where(nameKeyOrId(db, 'slug', search));
      if (active !== undefined) query = query.where('active', '=', active ? 1 : 0);
      return fetchNewestFirst(query, 'createdAt', page, (row) => row.createdAt, toRecord);
    },
  };
}
