import { z } from 'zod';
import { recordIdSchema } from './fields.js';
import { pageQuerySchema } from './paging.js';

/**
 * An audit event kind: lower-case dotted segments such as `oauth.direct_login.rejected` (docs/reference/events.md
 * "Event names" names its kinds this way). Lower case only, so that a kind filter means the same thing on
 * SQLite (whose LIKE ignores ASCII case) and on PostgreSQL (whose LIKE does not).
 */
export const AUDIT_KIND_PATTERN = /^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)*$/;

/** A kind filter: an exact kind, or a prefix of whole segments ending in `.*` (`admin.*`, `oauth.direct_login.*`). */
export const AUDIT_KIND_FILTER_PATTERN = /^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)*(?:\.\*)?$/;

/** The most kinds and prefixes one `kind` filter may list. */
export const AUDIT_KIND_FILTER_MAX_ITEMS = 20;

/** Who caused an event. */
export const auditActorTypeSchema = z.enum(['operator', 'user', 'client', 'system']);
export type AuditActorType = z.output<typeof auditActorTypeSchema>;

const TIMESTAMP_MESSAGE = 'expected an ISO 8601 timestamp with a time zone, such as 2026-01-01T00:00:00Z';

const timestampSchema = z.iso.datetime({ offset: true, error: TIMESTAMP_MESSAGE });

const KIND_FILTER_MESSAGE =
  'expected an event kind such as admin.organization.created, a prefix ending in .* such as admin.*, ' +
  `or up to ${AUDIT_KIND_FILTER_MAX_ITEMS} of them separated by commas`;

/** `kind`: one kind or prefix, or several separated by commas (an event matches any of them). */
const kindFilterSchema = z
  .string()
  .max(1000, { error: KIND_FILTER_MESSAGE })
  .refine(
    (value) => {
      const items = value.split(',');
      return (
        items.length <= AUDIT_KIND_FILTER_MAX_ITEMS &&
        items.every((item) => item.length <= 200 && AUDIT_KIND_FILTER_PATTERN.test(item))
      );
    },
    { error: KIND_FILTER_MESSAGE },
  );

/**
 * What `GET /events`, `/events/export` and the summary's links filter on, all AND-combined: `kind`
 * (exact, `prefix.*`, or a comma-separated list of either), the record ids an event names (`actorId`,
 * `organizationId`, `userId`, `clientId`, and `subjectId`: the record the event is about, see
 * docs/reference/events.md "Reading events"), and the window `from` (inclusive) to `to` (exclusive).
 */
const auditEventFilterShape = {
  kind: kindFilterSchema.optional(),
  actorId: recordIdSchema.optional(),
  organizationId: recordIdSchema.optional(),
  userId: recordIdSchema.optional(),
  clientId: recordIdSchema.optional(),
  subjectId: recordIdSchema.optional(),
  from: timestampSchema.optional(),
  to: timestampSchema.optional(),
};

const windowInOrder = (query: { from?: string | undefined; to?: string | undefined }) =>
  query.from === undefined || query.to === undefined || Date.parse(query.from) < Date.parse(query.to);
const WINDOW_ORDER = { path: ['from'], error: 'must be before to (from is inclusive, to is exclusive)' };

/** Query of `GET /svc/admin/audit/api/events/export`: the filters of the list, without paging. */
export const auditEventFilterSchema = z.object(auditEventFilterShape).refine(windowInOrder, WINDOW_ORDER);
export type AuditEventFilter = z.output<typeof auditEventFilterSchema>;
export type AuditEventFilterInput = z.input<typeof auditEventFilterSchema>;

/**
 * Query of `GET /svc/admin/audit/api/events`: the filters and the paging fields of every list. Times
 * stay ISO strings in the output so that the same schema describes what a dashboard sends and what the
 * server reads.
 */
export const auditEventQuerySchema = pageQuerySchema
  .extend(auditEventFilterShape)
  .refine(windowInOrder, WINDOW_ORDER);
export type AuditEventQuery = z.output<typeof auditEventQuerySchema>;
export type AuditEventQueryInput = z.input<typeof auditEventQuerySchema>;

/** The `{id}` of `GET /svc/admin/audit/api/events/{id}`. */
export const auditEventPathSchema = z.object({ id: recordIdSchema });

/**
 * One audit event on the wire; fields a capability did not set are null, `data` is `{}` when empty.
 * `subjectId` is the record the event is about (null on events recorded before it was kept).
 */
export const auditEventSchema = z.object({
  id: z.string(),
  kind: z.string(),
  occurredAt: z.iso.datetime(),
  actorType: auditActorTypeSchema.nullable(),
  actorId: z.string().nullable(),
  organizationId: z.string().nullable(),
  userId: z.string().nullable(),
  clientId: z.string().nullable(),
  subjectId: z.string().nullable(),
  ipAddress: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.output<typeof auditEventSchema>;

/** A page of audit events, newest first. */
export const auditEventPageSchema = z.object({
  data: z.array(auditEventSchema),
  nextCursor: z.string().nullable(),
});
export type AuditEventPage = z.output<typeof auditEventPageSchema>;

/** Query of `GET /svc/admin/audit/api/events/summary`: the last 24 hours by hour, or 7 days by day. */
export const auditSummaryQuerySchema = z.object({
  window: z.enum(['24h', '7d'], { error: 'expected 24h or 7d' }).default('24h'),
});
export type AuditSummaryQuery = z.output<typeof auditSummaryQuerySchema>;

/** The counts of one bucket (and of the whole window). */
export const auditSummaryCountsSchema = z.object({
  signIns: z.number().int(),
  failedSignIns: z.number().int(),
  throttled: z.number().int(),
  newUsers: z.number().int(),
});
export type AuditSummaryCounts = z.output<typeof auditSummaryCountsSchema>;
export type AuditSummaryCategory = keyof AuditSummaryCounts;

/**
 * `GET /events/summary`: whole UTC hours (24h) or days (7d), oldest first, the last one holding now.
 * `kinds` gives each category's `kind` filter: `GET /events?kind=<kinds.x>&from=<start>&to=<next start>`
 * lists exactly the events a bucket counts. A bucket's `activeSessions`: the token sessions usable at its
 * end (the last bucket's: now), among those still stored; the top-level `activeSessions`: those usable now.
 */
export const auditSummarySchema = z.object({
  window: z.enum(['24h', '7d']),
  bucket: z.enum(['hour', 'day']),
  from: z.iso.datetime(),
  to: z.iso.datetime(),
  buckets: z.array(
    auditSummaryCountsSchema.extend({ start: z.iso.datetime(), activeSessions: z.number().int() }),
  ),
  totals: auditSummaryCountsSchema,
  kinds: z.object({
    signIns: z.string(),
    failedSignIns: z.string(),
    throttled: z.string(),
    newUsers: z.string(),
  }),
  activeSessions: z.number().int(),
});
export type AuditSummary = z.output<typeof auditSummarySchema>;
