import type { AuditActorType } from './audit-log.js';

export type { AuditActorType };

/** One stored audit event. Fields a capability did not set are null; `data` is already redacted. */
export interface AuditRecord {
  readonly id: string;
  readonly kind: string;
  /** Epoch milliseconds. */
  readonly occurredAt: number;
  readonly actorType: AuditActorType | null;
  readonly actorId: string | null;
  readonly organizationId: string | null;
  readonly userId: string | null;
  readonly clientId: string | null;
  readonly ipAddress: string | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Which events to read. All conditions combine with AND; an empty filter reads everything. */
export interface AuditFilter {
  /** Exactly this kind. */
  readonly kind?: string;
  /** Kinds that start with this text (for example `admin.`); matched literally, not as a pattern. */
  readonly kindPrefix?: string;
  /** Epoch ms, inclusive. */
  readonly from?: number;
  /** Epoch ms, exclusive. */
  readonly to?: number;
}

export interface AuditPageRequest {
  readonly limit: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
}

export interface AuditRecordPage {
  readonly data: AuditRecord[];
  readonly nextCursor: string | null;
}

/**
 * Storage of the audit log. Append-only on purpose: there is no update and no delete, so that no code
 * path of the service can rewrite history (retention, if ever needed, belongs to a separate job).
 */
export interface AuditRepository {
  append(record: AuditRecord): Promise<void>;
  /** Newest first, by (occurredAt, id); a page never repeats or skips an event of the same filter. */
  list(filter: AuditFilter, page: AuditPageRequest): Promise<AuditRecordPage>;
}
