import { sql } from 'kysely';
import type { AuditActorType, AuditRecord, AuditRepository } from '../../audit/repository.js';
import type { Db } from '../database.js';
import { fetchNewestFirst } from '../paging.js';
import { escapeLike } from './search.js';
import type { AuditEventsTable } from '../schema.js';

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
          ipAddress: record.ipAddress,
          dataJson: JSON.stringify(record.data),
        })
        .execute();
    },

    list(filter, page) {
      let query = db.selectFrom('auditEvents').selectAll();
      if (filter.kind !== undefined) query = query.where('kind', '=', filter.kind);
      if (filter.kindPrefix !== undefined) {
        const pattern = `${escapeLike(filter.kindPrefix)}%`;
        query = query.where(sql<boolean>`${sql.ref('kind')} like ${pattern} escape '\\'`);
      }
      if (filter.from !== undefined) query = query.where('occurredAt', '>=', filter.from);
      if (filter.to !== undefined) query = query.where('occurredAt', '<', filter.to);
      return fetchNewestFirst(query, 'occurredAt', page, (row) => row.occurredAt, toRecord);
    },
  };
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
