import type { AuditEventInput, AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { SessionRevocationReason, SessionSelector } from '../oauth/tokens/repository.js';
import type { AdminRepositories } from './repository.js';

/** What every admin service takes: storage through its interfaces, time, randomness and the audit log. */
export interface AdminDeps {
  readonly repositories: AdminRepositories;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
}

/**
 * Who performs an admin operation, for the audit trail. The HTTP routes pass the operator and the
 * client address; in-process callers (the host application, the CLI, the demo seed) may pass nothing,
 * which records the `system` actor.
 */
export interface AdminActor {
  readonly actorType?: 'operator' | 'system';
  readonly actorId?: string;
  readonly ipAddress?: string;
}

/** The actor part of an audit event, without undefined properties (exactOptionalPropertyTypes). */
export function actorFields(
  actor: AdminActor | undefined,
): Pick<AuditEventInput, 'actorType' | 'actorId' | 'ipAddress'> {
  return {
    actorType: actor?.actorType ?? 'system',
    ...(actor?.actorId === undefined ? {} : { actorId: actor.actorId }),
    ...(actor?.ipAddress === undefined ? {} : { ipAddress: actor.ipAddress }),
  };
}

/**
 * How a deactivation ends what a record's sessions allow (docs/reference/organizations.md "Deactivation": the
 * record's sessions, all of them or those in that organization, end). Both write the database, so the end
 * holds on every node at once.
 */
export interface AdminSessionControl {
  /** Revokes the live token sessions the selector matches, with their refresh tokens; returns how many. */
  revokeTokenSessions(selector: SessionSelector, reason: SessionRevocationReason): Promise<number>;
  /** Ends every issuer (browser) session of the user, so that /authorize cannot reuse one; returns how many. */
  endBrowserSessions(userId: string): Promise<number>;
}

/** What the record updates (and their deactivations) take. */
export interface AdminLifecycleDeps extends AdminDeps {
  readonly sessions: AdminSessionControl;
}
