import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type {
  AuditActorType,
  AuditFilter,
  AuditKindMatch,
  AuditRecord,
  AuditRepository,
} from '../../audit/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import type { AuditEventsTable, Database } from '../schema.js';
import { escapeLike } from './search.js';

const ACTOR_TYPES: ReadonlySet<string> = new Set<AuditActorType>(['operator', 'user', 'client', 'system']);

/**
 * The audit log in `audit_events`. It offers append and list only: no update, no delete. `db` may be a
 * transaction, so that a capability can record its events atomically with its own writes.
 */
export function auditEventsRepository(db: Db): AuditRepository {
  return {
    async append(record) {
      await db
        .insertInto('auditEvents')
        .values({
          id: record.id,
          kind: record.kind,
          occurredAt: record.occurredAt,
          actorType: record.actorType,
          actorId: record.actorId,
          organizationId: record.organizationId,
          userId: record.userId,
          clientId: record.clientId,
          subjectId: record.subjectId,
          ipAddress: record.ipAddress,
          dataJson: JSON.stringify(record.data),
        })
        .execute();
    },

    list(filter, page) {
      const query = db
        .selectFrom('auditEvents')
        .selectAll()
        .where((eb) => eb.and(conditions(eb, filter)));
      return fetchNewestFirst(query, 'occurredAt', page, (row) => row.occurredAt, toRecord);
    },

    async find(id) {
      const row = await db.selectFrom('auditEvents').selectAll().where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : toRecord(row);
    },

    async countByBucket(kind, { from, to, bucketMs }) {
      // Cast, because better-sqlite3 binds numbers as REAL and SQLite would divide exactly; grouped by
      // the select's alias, since the same expression with its own parameters differs to PostgreSQL.
      const bucket = sql<number>`cast((${sql.ref('occurredAt')} - ${from}) / ${bucketMs} as integer)`;
      const rows = await db
        .selectFrom('auditEvents')
        .select((eb) => [bucket.as('bucket'), 'kind', eb.fn.countAll<number | string>().as('count')])
        .where((eb) => eb.and(conditions(eb, { kind, from, to })))
        .groupBy([sql.ref('bucket'), 'kind'])
        .execute();
      return rows.map((row) => ({ bucket: Number(row.bucket), kind: row.kind, count: Number(row.count) }));
    },
  };
}

const ID_COLUMNS = ['actorId', 'organizationId', 'userId', 'clientId', 'subjectId'] as const;

/** The WHERE conditions of a filter, ANDed by the caller; each id column has an index of its own (0046). */
function conditions(eb: ExpressionBuilder<Database, 'auditEvents'>, filter: AuditFilter) {
  const where = [];
  if (filter.kind !== undefined) where.push(kindCondition(eb, filter.kind));
  for (const column of ID_COLUMNS) {
    const value = filter[column];
    if (value !== undefined) where.push(eb(column, '=', value));
  }
  if (filter.from !== undefined) where.push(eb('occurredAt', '>=', filter.from));
  if (filter.to !== undefined) where.push(eb('occurredAt', '<', filter.to));
  return where;
}

/** Any of the exact kinds (IN) or of the prefixes (LIKE with the wildcards escaped). */
function kindCondition(eb: ExpressionBuilder<Database, 'auditEvents'>, match: AuditKindMatch) {
  const prefixes = match.prefixes.map(
    (prefix) => sql<SqlBool>`${sql.ref('kind')} like ${`${escapeLike(prefix)}%`} escape '\\'`,
  );
  return eb.or(match.exact.length > 0 ? [eb('kind', 'in', [...match.exact]), ...prefixes] : prefixes);
}

function toRecord(row: AuditEventsTable): AuditRecord {
  return {
    id: row.id,
    kind: row.kind,
    occurredAt: row.occurredAt,
    actorType:
      row.actorType !== null && ACTOR_TYPES.has(row.actorType) ? (row.actorType as AuditActorType) : null,
    actorId: row.actorId,
    organizationId: row.organizationId,
    userId: row.userId,
    clientId: row.clientId,
    subjectId: row.subjectId,
    ipAddress: row.ipAddress,
    data: parseData(row.dataJson),
  };
}

/** The writer stores a JSON object; anything else (a row written by hand) reads as `{ value }` rather than failing the page. */
function parseData(json: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
    return { value: parsed };
  } catch {
    return { value: json };
  }
}
