import type { SvcCalendarConnection } from '@svc/contract';
import { toIso } from '../kernel/clock.js';
import type { CalendarConnectionRecord } from './repository.js';

const isoOrNull = (epochMs: number | null) => (epochMs === null ? null : toIso(epochMs));

/** A calendar connection as its user and operators read it: whether tokens are held, never a token. */
export function toSvcCalendarConnection(record: CalendarConnectionRecord): SvcCalendarConnection {
  return {
    id: record.id,
    userId: record.userId,
    connectionId: record.connectionId,
    providerType: record.providerType,
    accountEmail: record.accountEmail,
    scopes: [...record.scopes],
    status: record.status,
    offlineAccess: record.offlineAccess,
    accessTokenExpiresAt: record.status === 'revoked' ? null : isoOrNull(record.accessTokenExpiresAt),
    lastRefreshedAt: isoOrNull(record.lastRefreshedAt),
    revokedAt: isoOrNull(record.revokedAt),
    createdAt: toIso(record.createdAt),
    updatedAt: toIso(record.updatedAt),
  };
}
