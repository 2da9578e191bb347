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
  /** The record the event is about (audit/subject.ts); null on events stored before migration 0046. */
  readonly subjectId: string | null;
  readonly ipAddress: string | null;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Kinds an event may have: any of the exact ones, or any starting with one of the prefixes. */
export interface AuditKindMatch {
  readonly exact: readonly string[];
  /** Matched literally, not as a pattern (for example `admin.`). */
  readonly prefixes: readonly string[];
}

/** Which events to read. All conditions combine with AND; an empty filter reads everything. */
export interface AuditFilter {
  readonly kind?: AuditKindMatch;
  readonly actorId?: string;
  readonly organizationId?: string;
  readonly userId?: string;
  readonly clientId?: string;
  readonly subjectId?: string;
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

/** How many events of each kind fell in each bucket of a window. */
export interface AuditKindCount {
  /** 0 for the bucket starting at the window's start, 1 for the next… */
  readonly bucket: number;
  readonly kind: string;
  readonly count: number;
}

/** A window cut into equal buckets: [from, from + bucketMs), [from + bucketMs, …) up to `to`. */
export interface AuditBuckets {
  readonly from: number;
  readonly to: number;
  readonly bucketMs: number;
}

/**
 * Storage of the audit log. Append-only on purpose: there is no update and no delete, so that no code
 * path of the service can rewrite history (retention, if ever needed, belongs to a separate job).
 */
export interface AuditRepository {
  append(record: AuditRecord): Promise<void>;
  /** Newest first, by (occurredAt, id); a page never repeats or skips an event of the same filter. */
  list(filter: AuditFilter, page: AuditPageRequest): Promise<AuditRecordPage>;
  find(id: string): Promise<AuditRecord | undefined>;
  /** The events of the kinds `kind` matches in the window, counted per bucket and kind in one grouped query. */
  countByBucket(kind: AuditKindMatch, buckets: AuditBuckets): Promise<AuditKindCount[]>;
}
