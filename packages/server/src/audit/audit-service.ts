import { AUDIT_KIND_PATTERN, type AuditEventFilter, type AuditEventQuery } from '@svc/contract';
import type { Clock } from '../kernel/clock.js';
import { SvcError, SvcNotFoundError, SvcUnavailableError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { AuditEventInput, AuditLog } from './audit-log.js';
import { redactSecrets } from './redact.js';
import type {
  AuditFilter,
  AuditKindMatch,
  AuditRecord,
  AuditRecordPage,
  AuditRepository,
} from './repository.js';
import { auditSubjectOf } from './subject.js';

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
  /** The export's cap and page size; AUDIT_EXPORT_MAX_EVENTS and 500 unless a test makes them small. */
  readonly exportLimits?: { readonly maxEvents: number; readonly pageSize: number };
}

/** Reads the audit log; what the admin route depends on. */
export interface AuditReader {
  /** Newest first; `query` is the contract's parsed query (times still ISO strings). */
  list(query: AuditEventQuery): Promise<AuditRecordPage>;
  /** One event; a 404 for an unknown id. */
  get(id: string): Promise<AuditRecord>;
  /**
   * Every event the filter matches, newest first, at most {@link AUDIT_EXPORT_MAX_EVENTS}, in pages read
   * one at a time as the consumer pulls, so that memory stays flat however many there are.
   */
  export(filter: AuditEventFilter): AsyncIterable<readonly AuditRecord[]>;
}

/** The most events one export answers; a longer one is cut there (narrow the window to export the rest). */
export const AUDIT_EXPORT_MAX_EVENTS = 100_000;

const EXPORT_LIMITS = { maxEvents: AUDIT_EXPORT_MAX_EVENTS, pageSize: 500 };

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
        subjectId: auditSubjectOf(event) ?? null,
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

    async get(id: string): Promise<AuditRecord> {
      const record = await deps.repository.find(id);
      if (record === undefined) throw new SvcNotFoundError(`There is no audit event "${id}".`);
      return record;
    },

    async *export(query: AuditEventFilter): AsyncIterable<readonly AuditRecord[]> {
      const filter = toFilter(query);
      const { maxEvents, pageSize } = deps.exportLimits ?? EXPORT_LIMITS;
      let left = maxEvents;
      let cursor: string | null | undefined;
      do {
        const limit = Math.min(pageSize, left);
        const page = await deps.repository.list(filter, cursor == null ? { limit } : { limit, cursor });
        if (page.data.length > 0) yield page.data;
        left -= page.data.length;
        cursor = page.nextCursor;
      } while (cursor !== null && left > 0);
    },
  };
}

/**
 * A `kind` filter as the repository matches it: each comma-separated item is exact, or with `.*` a
 * prefix (`admin.*` selects kinds under `admin.`, not `admin` itself, not `administrator.x`).
 */
export function parseKindFilter(kind: string): AuditKindMatch {
  const items = kind.split(',');
  return {
    exact: items.filter((item) => !item.endsWith('.*')),
    prefixes: items.filter((item) => item.endsWith('.*')).map((item) => item.slice(0, -1)),
  };
}

/** Whether `kind` is one the match selects (what the repository's WHERE clause says, in code). */
export function kindMatches(match: AuditKindMatch, kind: string): boolean {
  return match.exact.includes(kind) || match.prefixes.some((prefix) => kind.startsWith(prefix));
}

/** The contract's parsed filters as the repository reads them (times in epoch ms). */
export function toFilter(query: AuditEventFilter): AuditFilter {
  const { kind, from, to, actorId, organizationId, userId, clientId, subjectId } = query;
  return {
    ...(kind === undefined ? {} : { kind: parseKindFilter(kind) }),
    ...(actorId === undefined ? {} : { actorId }),
    ...(organizationId === undefined ? {} : { organizationId }),
    ...(userId === undefined ? {} : { userId }),
    ...(clientId === undefined ? {} : { clientId }),
    ...(subjectId === undefined ? {} : { subjectId }),
    ...(from === undefined ? {} : { from: Date.parse(from) }),
    ...(to === undefined ? {} : { to: Date.parse(to) }),
  };
}
