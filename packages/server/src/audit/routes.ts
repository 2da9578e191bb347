import { Readable } from 'node:stream';
import {
  auditEventFilterSchema,
  auditEventPathSchema,
  auditEventQuerySchema,
  auditSummaryQuerySchema,
  type AuditEvent,
  type AuditEventPage,
} from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { toIso, type Clock } from '../kernel/clock.js';
import { parseParams, parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import type { AuditReader } from './audit-service.js';
import type { AuditRecord } from './repository.js';
import type { AuditSummarizer } from './summary.js';

/** A stored record in its wire shape (ISO time, camelCase). */
export function toAuditEvent(record: AuditRecord): AuditEvent {
  return {
    id: record.id,
    kind: record.kind,
    occurredAt: toIso(record.occurredAt),
    actorType: record.actorType,
    actorId: record.actorId,
    organizationId: record.organizationId,
    userId: record.userId,
    clientId: record.clientId,
    subjectId: record.subjectId,
    ipAddress: record.ipAddress,
    data: { ...record.data },
  };
}

/** One JSON line per event, a chunk per page the reader yields. */
async function* jsonLines(pages: AsyncIterable<readonly AuditRecord[]>): AsyncIterable<string> {
  for await (const page of pages) {
    yield page.map((record) => `${JSON.stringify(toAuditEvent(record))}\n`).join('');
  }
}

export interface AuditApiDeps {
  readonly audit: AuditReader;
  readonly summary: AuditSummarizer;
  /** Dates the export's file name. */
  readonly clock: Clock;
}

/**
 * The audit API; the app registers it at `/svc/admin/audit/api` behind the operator guard:
 * - `GET /events?kind=&actorId=&organizationId=&userId=&clientId=&subjectId=&from=&to=&limit=&cursor=`
 *   → `{ data, nextCursor }`, newest first;
 * - `GET /events/export?<the same filters>` → the events as JSON lines (at most AUDIT_EXPORT_MAX_EVENTS);
 * - `GET /events/summary?window=24h|7d` → the overview's counts;
 * - `GET /events/{id}` → one event, 404 `not_found` for an unknown id.
 * This plugin only parses, calls and maps. Errors answer `{ error, message }` with 400 for a bad query.
 */
export function auditApiRoutes(deps: AuditApiDeps): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);
    // Audit detail names users, clients and addresses: no shared cache may keep it.
    app.addHook('onSend', async (_request, reply) => {
      reply.header('cache-control', 'no-store');
    });

    app.get('/events', async (request) => {
      const query = parseQuery(auditEventQuerySchema, request.query);
      const page = await deps.audit.list(query);
      const body: AuditEventPage = { data: page.data.map(toAuditEvent), nextCursor: page.nextCursor };
      return body;
    });

    // A database failure after the first line ends the response without its last chunk (Fastify
    // destroys it and logs the error), so a client sees an incomplete download rather than a short file.
    app.get('/events/export', async (request, reply) => {
      const filter = parseQuery(auditEventFilterSchema, request.query);
      const date = toIso(deps.clock.now()).slice(0, 10);
      return reply
        .header('content-type', 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="svc-audit-${date}.jsonl"`)
        .send(Readable.from(jsonLines(deps.audit.export(filter))));
    });

    app.get('/events/summary', async (request) =>
      deps.summary.summarize(parseQuery(auditSummaryQuerySchema, request.query)),
    );

    app.get('/events/:id', async (request) => {
      const { id } = parseParams(auditEventPathSchema, request.params);
      return toAuditEvent(await deps.audit.get(id));
    });
  };
}
