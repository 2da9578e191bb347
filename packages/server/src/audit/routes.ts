import { auditEventQuerySchema, type AuditEvent, type AuditEventPage } from '@svc/contract';
import type { FastifyPluginAsync } from 'fastify';
import { toIso } from '../kernel/clock.js';
import { parseQuery } from '../http/body.js';
import { jsonErrorHandler } from '../http/errors.js';
import type { AuditReader } from './audit-service.js';
import type { AuditRecord } from './repository.js';

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
    ipAddress: record.ipAddress,
    data: { ...record.data },
  };
}

/**
 * The audit API: `GET /events?kind=&from=&to=&limit=&cursor=` → `{ data, nextCursor }`, newest first.
 * The app registers it at `/svc/admin/audit/api` behind the operator guard; this plugin only parses,
 * calls and maps. Errors answer `{ error, message }` with 400 for a bad query, never a 5xx.
 */
export function auditApiRoutes(deps: { audit: AuditReader }): FastifyPluginAsync {
  return async (app) => {
    app.setErrorHandler(jsonErrorHandler);

    app.get('/events', async (request, reply) => {
      const query = parseQuery(auditEventQuerySchema, request.query);
      const page = await deps.audit.list(query);
      const body: AuditEventPage = { data: page.data.map(toAuditEvent), nextCursor: page.nextCursor };
      // Audit detail names users, clients and addresses: no shared cache may keep it.
      return reply.header('cache-control', 'no-store').send(body);
    });
  };
}
