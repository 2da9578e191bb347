import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { SvcFgaSubjectRef, SvcFgaSubjectType } from '@svc/contract';
import type {
  FgaDefinitionKind,
  FgaDefinitionRecord,
  FgaGrantRecord,
  FgaPage,
  FgaPageRequest,
  FgaReads,
  FgaResourceRecord,
  FgaSubjectListing,
  FgaSubjectRecord,
} from '../../fga/repository.js';
import type { Db } from '../database.js';
import { fixedQuery } from '../fixed-query.js';
import { idChunks } from '../id-chunks.js';
import { fetchNewestFirst } from '../paging.js';
import type {
  Database,
  FgaDefinitionsTable,
  FgaGrantsTable,
  FgaResourcesTable,
  FgaSubjectsTable,
} from '../schema.js';

export function toDefinition(row: Selectable<FgaDefinitionsTable>): FgaDefinitionRecord {
  return {
    id: row.id,
    kind: row.kind as FgaDefinitionKind,
    key: row.key,
    name: row.name,
    permissionKeys: row.permissionKeysJson === null ? [] : (JSON.parse(row.permissionKeysJson) as string[]),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
  };
}

const toResource = (row: Selectable<FgaResourcesTable>): FgaResourceRecord => ({
  ...row,
  createdAt: Number(row.createdAt),
  updatedAt: Number(row.updatedAt),
});

const toSubject = (row: Selectable<FgaSubjectsTable>): FgaSubjectRecord => ({
  ...row,
  type: row.type as FgaSubjectRecord['type'],
  createdAt: Number(row.createdAt),
  updatedAt: Number(row.updatedAt),
});

export function toGrant(row: Selectable<FgaGrantsTable>): FgaGrantRecord {
  return {
    id: row.id,
    subject: { type: row.subjectType as SvcFgaSubjectType, id: row.subjectId },
    roleId: row.roleId,
    resourceId: row.resourceId,
    managedBy: row.managedBy,
    createdAt: Number(row.createdAt),
  };
}

// The check's reads on a cache miss: fixed queries, prepared once per PostgreSQL connection.
const selectOwnGrants = fixedQuery((db, p: { type: string; id: string }) =>
  db
    .selectFrom('fgaGrants')
    .select(['id', 'subjectType', 'subjectId', 'roleId', 'resourceId', 'managedBy', 'createdAt'])
    .where('subjectId', '=', p.id)
    .where('subjectType', '=', p.type),
);
const selectGroupGrants = fixedQuery((db, p: { userId: string }) =>
  db
    .selectFrom('fgaGroupMembers as m')
    .innerJoin('fgaGrants as g', (join) =>
      join.onRef('g.subjectId', '=', 'm.groupId').on('g.subjectType', '=', 'group'),
    )
    .select([
      'g.id',
      'g.subjectType',
      'g.subjectId',
      'g.roleId',
      'g.resourceId',
      'g.managedBy',
      'g.createdAt',
      'm.groupId',
    ])
    .where('m.userId', '=', p.userId),
);

async function allRoles(db: Db): Promise<FgaDefinitionRecord[]> {
  const rows = await db.selectFrom('fgaDefinitions').selectAll().where('kind', '=', 'role').execute();
  return rows.map(toDefinition);
}

async function findDefinition(
  db: Db,
  kind: FgaDefinitionKind,
  column: 'id' | 'key',
  value: string,
): Promise<FgaDefinitionRecord | undefined> {
  const row = await db
    .selectFrom('fgaDefinitions')
    .selectAll()
    .where('kind', '=', kind)
    .where(column, '=', value)
    .executeTakeFirst();
  return row === undefined ? undefined : toDefinition(row);
}

/** Reads of the FGA model on `db` (the database, or a write's transaction). */
export function fgaReads(db: Db): FgaReads {
  return {
    findDefinition: (kind, id) => findDefinition(db, kind, 'id', id),

    findDefinitionByKey: (kind, key) => findDefinition(db, kind, 'key', key),

    async existingPermissionKeys(keys) {
      if (keys.length === 0) return new Set();
      const rows = await db
        .selectFrom('fgaDefinitions')
        .select('key')
        .where('kind', '=', 'permission')
        .where('key', 'in', [...keys])
        .execute();
      return new Set(rows.map((row) => row.key));
    },

    listDefinitions(kind, page) {
      const query = db.selectFrom('fgaDefinitions').selectAll().where('kind', '=', kind);
      return fetchNewestFirst(query, 'created_at', page, (row) => Number(row.createdAt), toDefinition);
    },

    allRoles: () => allRoles(db),

    async permissionInUse(key) {
      // Roles are few, and a key may hold `_`, which LIKE would read as a wildcard.
      const roles = await allRoles(db);
      return roles.some((role) => role.permissionKeys.includes(key));
    },

    async definitionInUse(kind, id) {
      const row =
        kind === 'resource_type'
          ? await db.selectFrom('fgaResources').select('id').where('typeId', '=', id).executeTakeFirst()
          : await db.selectFrom('fgaGrants').select('id').where('roleId', '=', id).executeTakeFirst();
      return row !== undefined;
    },

    async findResource(id) {
      const row = await db.selectFrom('fgaResources').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toResource(row);
    },

    async ancestorChain(id, limit) {
      const { rows } = await sql<{ id: string }>`
        with recursive chain(id, parent_id, level) as (
          select id, parent_id, 1 from fga_resources where id = ${id}
          union all
          select r.id, r.parent_id, c.level + 1
          from fga_resources r join chain c on r.id = c.parent_id
          where c.level < ${limit}
        )
        select id from chain order by level`.execute(db);
      return rows.map((row) => row.id);
    },

    async ancestorChains(ids, limit) {
      const chains = new Map<string, string[]>();
      if (ids.length === 0) return chains;
      const { rows } = await sql<{ start: string; id: string }>`
        with recursive chain(start, id, parent_id, level) as (
          select id, id, parent_id, 1 from fga_resources where id in (${sql.join(ids)})
          union all
          select c.start, r.id, r.parent_id, c.level + 1
          from fga_resources r join chain c on r.id = c.parent_id
          where c.level < ${limit}
        )
        select start, id from chain order by start, level`.execute(db);
      for (const { start, id } of rows) {
        const chain = chains.get(start);
        if (chain === undefined) chains.set(start, [id]);
        else chain.push(id);
      }
      return chains;
    },

    async subtreeHeight(id, limit) {
      const { rows } = await sql<{ height: number | string | null }>`
        with recursive below(id, level) as (
          select id, 1 from fga_resources where parent_id = ${id}
          union all
          select r.id, b.level + 1
          from fga_resources r join below b on r.parent_id = b.id
          where b.level < ${limit}
        )
        select max(level) as height from below`.execute(db);
      return Number(rows[0]?.height ?? 0);
    },

    async hasChildren(id) {
      const row = await db
        .selectFrom('fgaResources')
        .select('id')
        .where('parentId', '=', id)
        .executeTakeFirst();
      return row !== undefined;
    },

    listResources(filter, page) {
      let query = db.selectFrom('fgaResources').selectAll();
      if (filter.parentId === null) query = query.where('parentId', 'is', null);
      else if (filter.parentId !== undefined) query = query.where('parentId', '=', filter.parentId);
      if (filter.typeId !== undefined) query = query.where('typeId', '=', filter.typeId);
      return fetchNewestFirst(query, 'created_at', page, (row) => Number(row.createdAt), toResource);
    },

    async findSubject(id) {
      const row = await db.selectFrom('fgaSubjects').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toSubject(row);
    },

    async userExists(id) {
      const row = await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },

    async organizationExists(id) {
      const row = await db.selectFrom('organizations').select('id').where('id', '=', id).executeTakeFirst();
      return row !== undefined;
    },

    listSubjects(type, page) {
      return listSubjects(db, type, page);
    },

    listGroupMembers(groupId, page) {
      const query = db
        .selectFrom('fgaGroupMembers')
        .select(['groupId', 'userId as id', 'createdAt'])
        .where('groupId', '=', groupId);
      return fetchNewestFirst(
        query,
        'created_at',
        page,
        (row) => Number(row.createdAt),
        (row) => ({ groupId: row.groupId, userId: row.id, createdAt: Number(row.createdAt) }),
      );
    },

    async findGrant(id) {
      const row = await db.selectFrom('fgaGrants').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toGrant(row);
    },

    async findGrantByKey(grant) {
      const row = await db
        .selectFrom('fgaGrants')
        .selectAll()
        .where('subjectId', '=', grant.subject.id)
        .where('subjectType', '=', grant.subject.type)
        .where('roleId', '=', grant.roleId)
        .where('resourceId', '=', grant.resourceId)
        .where('managedBy', '=', grant.managedBy)
        .executeTakeFirst();
      return row === undefined ? undefined : toGrant(row);
    },

    listGrants(filter, page) {
      let query = db.selectFrom('fgaGrants').selectAll();
      if (filter.subjectId !== undefined) query = query.where('subjectId', '=', filter.subjectId);
      if (filter.roleId !== undefined) query = query.where('roleId', '=', filter.roleId);
      if (filter.resourceId !== undefined) query = query.where('resourceId', '=', filter.resourceId);
      if (filter.managedBy !== undefined) query = query.where('managedBy', '=', filter.managedBy);
      return fetchNewestFirst(query, 'created_at', page, (row) => Number(row.createdAt), toGrant);
    },

    async managedGrants(managedBy, subjectIds) {
      const query = db.selectFrom('fgaGrants').selectAll().where('managedBy', '=', managedBy);
      if (subjectIds === undefined) return (await query.execute()).map(toGrant);
      const grants: FgaGrantRecord[] = [];
      for (const chunk of idChunks(subjectIds)) {
        const rows = await query.where('subjectId', 'in', chunk).execute();
        grants.push(...rows.map(toGrant));
      }
      return grants;
    },

    async subjectGrants(subject: SvcFgaSubjectRef) {
      const own = await selectOwnGrants(db, subject);
      const grants = own.rows.map((row) => ({ grant: toGrant(row), viaGroupId: null as string | null }));
      if (subject.type === 'user') {
        const viaGroups = await selectGroupGrants(db, { userId: subject.id });
        for (const { groupId, ...row } of viaGroups.rows)
          grants.push({ grant: toGrant(row), viaGroupId: groupId });
      }
      return { grants };
    },
  };
}

/**
 * Users and the FGA subjects, newest first: one keyset page of the union of the two tables (each
 * side read from its (created_at, id) order; both databases push the bounds into each side).
 */
function listSubjects(
  db: Db,
  type: SvcFgaSubjectType | undefined,
  page: FgaPageRequest,
): Promise<FgaPage<FgaSubjectListing>> {
  const users = db
    .selectFrom('users')
    .select([
      sql<string>`'user'`.as('type'),
      'id',
      'displayName as name',
      sql<string | null>`null`.as('organizationId'),
      'createdAt',
    ]);
  const others = db.selectFrom('fgaSubjects').select(['type', 'id', 'name', 'organizationId', 'createdAt']);
  let query = db.selectFrom(users.unionAll(others).as('subjects')).selectAll();
  if (type !== undefined) query = query.where('type', '=', type);
  return fetchNewestFirst(
    query as unknown as SelectQueryBuilder<Database, 'fgaSubjects', Selectable<FgaSubjectsTable>>,
    'created_at',
    page,
    (row) => Number(row.createdAt),
    (row) => ({
      type: row.type as SvcFgaSubjectType,
      id: row.id,
      name: row.name,
      organizationId: row.organizationId,
      createdAt: Number(row.createdAt),
    }),
  );
}
