import { z } from 'zod';

const text = (max: number) => z.string().max(max).optional().catch(undefined);

/**
 * The audit stream's filters in its link (`/audit?kind=admin.*&userId=usr_…&from=…`), exactly the query
 * of `GET /events` and `/events/export`: the API checks them, and a refusal shows its message, so a
 * hand-edited link is not silently narrowed or widened here.
 */
export const auditSearchSchema = z.object({
  kind: text(1000),
  actorId: text(200),
  subjectId: text(200),
  organizationId: text(200),
  userId: text(200),
  clientId: text(200),
  from: text(64),
  to: text(64),
});
export type AuditSearch = z.output<typeof auditSearchSchema>;

export const AUDIT_FILTERS = [
  'kind',
  'actorId',
  'subjectId',
  'organizationId',
  'userId',
  'clientId',
  'from',
  'to',
] as const satisfies readonly (keyof AuditSearch)[];

/** Whether any filter is set. */
export const isFiltered = (search: AuditSearch): boolean =>
  AUDIT_FILTERS.some((name) => search[name] !== undefined);
