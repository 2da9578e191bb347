import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { DirectoryRepositories } from './repository.js';

/** What every directory service takes: storage through its interfaces, time, randomness and the audit log. */
export interface DirectoryDeps {
  readonly repositories: DirectoryRepositories;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
}

/** The sessions a directory change ends: a user's, an organization's, a membership's or a client's. */
export type DirectorySessionSubject =
  | { readonly userId: string; readonly organizationId?: string }
  | { readonly organizationId: string }
  | { readonly clientId: string };

/** Why they end (recorded on each session as its revocation reason). */
export type DirectorySessionEnd =
  | 'user_deactivated'
  | 'organization_deactivated'
  | 'membership_deactivated'
  | 'client_deactivated'
  | 'unverified_account_claimed';

/**
 * How a deactivation ends what a record's sessions allow: the subject's sessions (all, or those in that
 * organization) are revoked (docs/reference/organizations.md "Deactivation"). The token engine implements
 * it, so the directory names only the subject and the reason. Both write the database, so the end holds
 * on every node at once.
 */
export interface DirectorySessionControl {
  /** Revokes the subject's live token sessions, with their refresh tokens; returns how many. */
  revokeTokenSessions(subject: DirectorySessionSubject, reason: DirectorySessionEnd): Promise<number>;
  /** Ends every issuer (browser) session of the user, so that /authorize cannot reuse one; returns how many. */
  endBrowserSessions(userId: string): Promise<number>;
}

/** What the record updates (and their deactivations) take. */
export interface DirectoryLifecycleDeps extends DirectoryDeps {
  readonly sessions: DirectorySessionControl;
}
