import type { AuditEventInput } from './audit-log.js';

type SubjectOf = (event: AuditEventInput) => string | undefined;

const inData =
  (key: string): SubjectOf =>
  (event) => {
    const value = event.data?.[key];
    return typeof value === 'string' ? value : undefined;
  };

const selectedSession: SubjectOf = (event) => {
  const selector = event.data?.['selector'];
  if (typeof selector !== 'object' || selector === null) return undefined;
  const sessionId = (selector as Record<string, unknown>)['sessionId'];
  return typeof sessionId === 'string' ? sessionId : undefined;
};

/**
 * Where the record an event is about sits, by kind prefix (the first match wins): kinds whose record is
 * not a user, client or organization carry its id in `data` under a name of their own. Every other kind
 * is about its user, else its client, else its organization (docs/reference/events.md "Reading events").
 */
const BY_KIND: readonly (readonly [prefix: string, subject: SubjectOf])[] = [
  ['admin.membership.', inData('membershipId')],
  ['admin.invitation.', inData('invitationId')],
  ['invitation.', inData('invitationId')],
  ['admin.sso_connection.', inData('connectionId')],
  ['admin.oidc_connection.', inData('connectionId')],
  ['admin.scim_connection.', inData('connectionId')],
  ['admin.scim_mapping.', inData('mappingId')],
  ['admin.domain_claim.', inData('claimId')],
  ['admin.sso_portal_link.', inData('linkId')],
  ['sso_portal.', inData('linkId')],
  ['admin.scope_display_name.', inData('scopeDisplayNameId')],
  ['admin.sessions.revoked', selectedSession],
  ['calendar.connection.', inData('calendarConnectionId')],
  ['fga.group.member_', inData('groupId')],
  ['fga.', inData('id')],
];

/**
 * The subject of an event: the id the capability names (`subjectId`), or the one its kind keeps (see
 * BY_KIND), or its user, client or organization; undefined when it names none (settings, for example).
 */
export function auditSubjectOf(event: AuditEventInput): string | undefined {
  if (event.subjectId !== undefined) return event.subjectId;
  const rule = BY_KIND.find(([prefix]) => event.kind.startsWith(prefix));
  return rule?.[1](event) ?? event.userId ?? event.clientId ?? event.organizationId;
}
