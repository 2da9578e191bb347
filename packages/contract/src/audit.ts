import { z } from 'zod';
import { pageQuerySchema } from './paging.js';

/**
 * An audit event kind: lower-case dotted segments such as `oauth.direct_login.rejected` (SPEC.md
 * "Events" names its kinds this way). Lower case only, so that a kind filter means the same thing on
 * SQLite (whose LIKE ignores ASCII case) and on PostgreSQL (whose LIKE does not).
 */
export const AUDIT_KIND_PATTERN = /^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)*$/;

/** A kind filter: an exact kind, or a prefix of whole segments ending in `.*` (`admin.*`, `oauth.direct_login.*`). */
export const AUDIT_KIND_FILTER_PATTERN = /^[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)*(?:\.\*)?$/;

/** Who caused an event. */
export const auditActorTypeSchema = z.enum(['operator', 'user', 'client', 'system']);
export type AuditActorType = z.output<typeof auditActorTypeSchema>;

const TIMESTAMP_MESSAGE = 'expected an ISO 8601 timestamp with a time zone, such as 2026-01-01T00:00:00Z';

const timestampSchema = z.iso.datetime({ offset: true, error: TIMESTAMP_MESSAGE });

/**
 * Query of `GET /svc/admin/audit/api/events`: `kind` (exact or `prefix.*`), the window `from` (inclusive)
 * to `to` (exclusive), and the paging fields of every list. Times stay ISO strings in the output so that
 * the same schema describes what a dashboard sends and what the server reads.
 */
export const auditEventQuerySchema = pageQuerySchema
  .extend({
    kind: z
      .string()
      .max(200)
      .regex(AUDIT_KIND_FILTER_PATTERN, {
        error:
          'expected an event kind such as admin.organization.created, or a prefix ending in .* such as admin.*',
      })
      .optional(),
    from: timestampSchema.optional(),
    to: timestampSchema.optional(),
  })
  .refine(
    (query) =>
      query.from === undefined || query.to === undefined || Date.parse(query.from) < Date.parse(query.to),
    {
      path: ['from'],
      error: 'must be before to (from is inclusive, to is exclusive)',
    },
  );
export type AuditEventQuery = z.output<typeof auditEventQuerySchema>;
export type AuditEventQueryInput = z.input<typeof auditEventQuerySchema>;

/** One audit event on the wire; fields a capability did not set are null, `data` is `{}` when empty. */
export const auditEventSchema = z.object({
  id: z.string(),
  kind: z.string(),
  occurredAt: z.iso.datetime(),
  actorType: auditActorTypeSchema.nullable(),
  actorId: z.string().nullable(),
  organizationId: z.string().nullable(),
  userId: z.string().nullable(),
  clientId: z.string().nullable(),
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
