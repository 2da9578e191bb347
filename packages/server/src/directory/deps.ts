import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { SessionRevocationReason, SessionSelector } from '../oauth/tokens/repository.js';
import type { DirectoryRepositories } from './repository.js';

/** What every directory service takes: storage through its interfaces, time, randomness and the audit log. */
export interface DirectoryDeps {
  readonly repositories: DirectoryRepositories;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
}

/**
 * How a deactivation ends what a record's sessions allow (DECISIONS.md "Deactivation": "the subject's
 * sessions (all, or those in that organization) are revoked"). Both write the database, so the end holds
 * on every node at once.
 */
export interface DirectorySessionControl {
  /** Revokes the live token sessions the selector matches, with their refresh tokens; returns how many. */
  revokeTokenSessions(selector: SessionSelector, reason: SessionRevocationReason): Promise<number>;
  /** Ends every issuer (browser) session of the user, so that /authorize cannot reuse one; returns how many. */
  endBrowserSessions(userId: string): Promise<number>;
}

/** What the record updates (and their deactivations) take. */
export interface DirectoryLifecycleDeps extends DirectoryDeps {
  readonly sessions: DirectorySessionControl;
}
