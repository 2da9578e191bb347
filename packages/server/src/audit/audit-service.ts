import { AUDIT_KIND_PATTERN, type AuditEventQuery } from '@svc/contract';
import type { Clock } from '../kernel/clock.js';
import { SvcError, SvcUnavailableError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { AuditEventInput, AuditLog } from './audit-log.js';
import { redactSecrets } from './redact.js';
import type { AuditFilter, AuditRecordPage, AuditRepository } from './repository.js';

/** The part of pino's (and fastify's) logger that the audit log uses. */
export interface AuditLogger {
  warn(details: Record<string, unknown>, message: string): void;
}

export interface AuditLogDeps {
  readonly repository: AuditRepository;
  readonly clock: Clock;
  readonly ids: Ids;
  /** Told when `data` carried a secret-looking key (a bug in the capability that wrote it). */
  readonly logger?: AuditLogger;
}

/** Reads the audit log; what the admin route depends on. */
export interface AuditReader {
  /** Newest first; `query` is the contract's parsed query (times still ISO strings). */
  list(query: AuditEventQuery): Promise<AuditRecordPage>;
}

/** The writer every capability uses plus the reader of the audit API. */
export interface AuditService extends AuditLog, AuditReader {}

const MAX_KIND_LENGTH = 200;

/**
 * Creates the audit log.
 *
 * Writes are part of the operation that records them: a failed write rejects `record()` with an unexposed
 * SvcError (a bare 500 on every surface) instead of being swallowed, so that no security-relevant action
 * completes without its trace. A capability that needs the event and its own change to land together
 * builds the log over a transaction (`auditEventsRepository(tx)`).
 *
 * As a defence in depth, keys of `data` that name secrets (password, token, secret, code…) are replaced
 * with "[redacted]" at any depth, and the logger is told which paths were redacted (never their values).
 */
export function createAuditLog(deps: AuditLogDeps): AuditService {
  return {
    async record(event: AuditEventInput): Promise<void> {
      // Kinds are lower-case dotted names, checked where they are written so that kind filters are exact.
      if (event.kind.length > MAX_KIND_LENGTH || !AUDIT_KIND_PATTERN.test(event.kind)) {
        // A programming error of the caller, not of the request: unexposed, so the client sees a 500.
        throw new SvcError(
          'server_error',
          `Audit event kind "${event.kind.slice(0, MAX_KIND_LENGTH)}" is not a lower-case dotted name.`,
          { status: 500, expose: false },
        );
      }
      const { value: data, redactedPaths } = redactSecrets(event.data ?? {});
      if (redactedPaths.length > 0) {
        deps.logger?.warn(
          { kind: event.kind, redactedPaths },
          'audit event data carried secret-looking keys; their values were redacted',
        );
      }
      const record = {
        id: deps.ids.id('aud'),
        kind: event.kind,
        occurredAt: deps.clock.now(),
        actorType: event.actorType ?? null,
        actorId: event.actorId ?? null,
        organizationId: event.organizationId ?? null,
        userId: event.userId ?? null,
        clientId: event.clientId ?? null,
        ipAddress: event.ipAddress ?? null,
        data,
      };
      try {
        await deps.repository.append(record);
      } catch (error) {
        if (error instanceof SvcUnavailableError) throw error;
        throw new SvcError('server_error', `Could not record the audit event ${event.kind}.`, {
          status: 500,
          expose: false,
          cause: error,
        });
      }
    },

    async list(query: AuditEventQuery): Promise<AuditRecordPage> {
      const page =
        query.cursor === undefined ? { limit: query.limit } : { limit: query.limit, cursor: query.cursor };
      return deps.repository.list(toFilter(query), page);
    },
  };
}

/** `admin.*` selects kinds under `admin.` (not `admin` itself, not `administrator.x`); any other value is exact. */
export function toFilter(query: Pick<AuditEventQuery, 'kind' | 'from' | 'to'>): AuditFilter {
  const filter: { kind?: string; kindPrefix?: string; from?: number; to?: number } = {};
  if (query.kind !== undefined) {
    if (query.kind.endsWith('.*')) filter.kindPrefix = query.kind.slice(0, -1);
    else filter.kind = query.kind;
  }
  if (query.from !== undefined) filter.from = Date.parse(query.from);
  if (query.to !== undefined) filter.to = Date.parse(query.to);
  return filter;
}
