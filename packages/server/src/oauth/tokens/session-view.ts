import type { SvcSession } from '@svc/contract';
import { toIso } from '../../kernel/clock.js';
import { sessionState } from './token-policy.js';
import type { OperatorSessionRecord } from './operator-session-repository.js';

/** A token session; `active` as at `now` (refresh and validation read the same state). */
export function toSvcSession(record: OperatorSessionRecord, now: number): SvcSession {
  return {
    id: record.id,
    userId: record.userId,
    user: { id: record.user.id, email: record.user.email, displayName: record.user.displayName },
    client: { clientId: record.client.clientId, name: record.client.name },
    organizationId: record.organizationId,
    organization: record.organization === null ? null : { ...record.organization },
    clientId: record.clientId,
    authenticationMethods: [...record.amr],
    active: sessionState(record, now) === 'active',
    createdAt: toIso(record.createdAt),
    lastSeenAt: toIso(record.lastSeenAt),
    idleExpiresAt: toIso(record.idleExpiresAt),
    absoluteExpiresAt: toIso(record.absoluteExpiresAt),
    revokedAt: record.revokedAt === null ? null : toIso(record.revokedAt),
    revokedReason: record.revokedReason,
    userAgent: record.userAgent,
    ipAddress: record.ipAddress,
  };
}
