import type { ClientRepository } from '../directory/repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import { DAY_MS, type Clock } from '../kernel/clock.js';
import type {
  DomainClaimRechecks,
  DomainRecheckReport,
} from '../organizations/domains/domain-claim-rechecks.js';
import type { FailureThrottle } from '../ratelimit/failure-throttle.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { AuthorizeFlow } from '../signin/flow/authorize-flow.js';
import type { SigningKeys } from '../oauth/keys/signing-keys.js';
import type { Db } from '../storage/database.js';
import {
  deleteExpiredRows,
  deleteExpiredSessions,
  type DeletedSessions,
  type ExpiringTable,
} from '../storage/expired-rows.js';

/** Expired secrets and token sessions are kept this long after expiry, then deleted. */
export const EXPIRED_ROW_GRACE_MS = DAY_MS;

/**
 * A client that described itself (a registration, a metadata document) and never got tokens is deleted
 * this long after it was stored or last fetched (docs/reference/oauth-clients.md "Self-described clients").
 */
export const UNUSED_CLIENT_LIFETIME_MS = 7 * DAY_MS;

export interface HousekeepingDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly signingKeys: Pick<SigningKeys, 'maintain'>;
  readonly authorizeFlow: Pick<AuthorizeFlow, 'deleteExpired'>;
  readonly rateLimiter: Pick<RateLimiter, 'deleteExpired'>;
  readonly failureThrottle: Pick<FailureThrottle, 'deleteExpired'>;
  readonly domainClaims: Pick<DomainClaimRechecks, 'recheckDue'>;
  readonly clients: Pick<ClientRepository, 'deleteUnused'>;
  readonly audit: AuditLog;
}

/** What one housekeeping run did. */
export interface HousekeepingReport {
  readonly rotatedKey: string | undefined;
  readonly deletedKeys: number;
  readonly deletedAuthRequests: number;
  readonly deletedRateLimitCounters: number;
  readonly deletedFailureCounters: number;
  readonly deletedExpired: Readonly<Record<ExpiringTable, number>>;
  readonly deletedSessions: DeletedSessions;
  /** Active domain claims whose TXT record was looked up again, and those revoked for want of it. */
  readonly domainClaims: DomainRecheckReport;
  /** Self-described clients deleted for never having been used. */
  readonly deletedUnusedClients: number;
}

/**
 * A node's periodic housekeeping: signing-key rotation and cleanup (only one node rotates), and the
 * deletion of expired authorization requests, rate-limit and failure counters, one-time codes, links, tokens, issuer
 * sessions and token sessions (with their refresh tokens), the re-verification of active domain
 * claims, and the deletion of self-described clients never used (audited as
 * `oauth.client.unused_deleted`). Every step is idempotent and safe to run on several nodes at once.
 */
export async function runHousekeeping(deps: HousekeepingDeps): Promise<HousekeepingReport> {
  const keys = await deps.signingKeys.maintain();
  const deletedAuthRequests = await deps.authorizeFlow.deleteExpired();
  const deletedRateLimitCounters = await deps.rateLimiter.deleteExpired();
  const deletedFailureCounters = await deps.failureThrottle.deleteExpired();
  const before = deps.clock.now() - EXPIRED_ROW_GRACE_MS;
  const deletedExpired = await deleteExpiredRows(deps.db, before);
  const deletedSessions = await deleteExpiredSessions(deps.db, before);
  const domainClaims = await deps.domainClaims.recheckDue();
  const unusedClients = await deps.clients.deleteUnused(deps.clock.now() - UNUSED_CLIENT_LIFETIME_MS);
  if (unusedClients.length > 0) {
    await deps.audit.record({
      kind: 'oauth.client.unused_deleted',
      actorType: 'system',
      // The count says how many; the first hundred ids keep the entry small.
      data: { count: unusedClients.length, clientIds: unusedClients.slice(0, 100) },
    });
  }
  return {
    rotatedKey: keys.rotated,
    deletedKeys: keys.deleted,
    deletedAuthRequests,
    deletedRateLimitCounters,
    deletedFailureCounters,
    deletedExpired,
    deletedSessions,
    domainClaims,
    deletedUnusedClients: unusedClients.length,
  };
}
