import type { Page, SvcAdminSessionRevocationPreview, SvcAdminSessionRevocationResult } from '@svc/contract';
import type { ListQuery, OrganizationSummary, UserSummary } from '../../directory/repository.js';
import type { SessionRecord, SessionRevocationReason, SessionSelector } from './repository.js';

/** A token session as operators list it: with its user, client and organization, read in the same query. */
export type OperatorSessionRecord = SessionRecord & {
  readonly user: UserSummary;
  /** `name` is null when the client no longer exists. */
  readonly client: { readonly clientId: string; readonly name: string | null };
  /** Null for a user-scoped session. */
  readonly organization: OrganizationSummary | null;
};

/** The sessions an operator lists: every given field must match. */
export interface SessionListFilter {
  readonly userId?: string | undefined;
  readonly organizationId?: string | undefined;
  /** The OAuth client_id. */
  readonly clientId?: string | undefined;
  /** Not revoked and before both deadlines at the list's `now` (false: the others). */
  readonly active?: boolean | undefined;
}

/** An operator's revocation that named an operation id, as stored for its retries. */
export interface SessionRevocationOperationRecord {
  readonly operationId: string;
  /** The resolved selector as canonical JSON, compared on a retry. */
  readonly selectorJson: string;
  readonly reason: string | null;
  readonly createdAt: number;
}

/**
 * The token sessions as the operator's routes read and revoke them (the token engine writes them; see
 * oauth/tokens/repository.ts). Reads see every session, revoked and expired ones too, until housekeeping
 * deletes it.
 */
export interface OperatorSessionStore {
  /** Newest first; `now` decides `active`. */
  list(filter: SessionListFilter, query: ListQuery, now: number): Promise<Page<OperatorSessionRecord>>;
  /**
   * How many sessions the selector matches, how many of their refresh tokens are usable at `now`, and how
   * many issuer (browser) sessions a revocation would end (`endBrowserSessions`).
   */
  count(selector: SessionSelector, now: number): Promise<SvcAdminSessionRevocationPreview>;
  /**
   * How many sessions were usable at each instant (now or earlier: created by then, not revoked by then,
   * before both deadlines), in the order given: the console's overview.
   */
  countUsableAt(instants: readonly number[]): Promise<number[]>;
  /**
   * Runs `work` in one transaction over a store bound to it; a throw rolls everything back, so that a
   * refused revocation leaves its operation id unused.
   */
  transaction<T>(work: (tx: SessionRevocationTransaction) => Promise<T>): Promise<T>;
}

/** The writes of one revocation, inside {@link OperatorSessionStore.transaction}. */
export interface SessionRevocationTransaction {
  /**
   * Inserts the operation unless its id is taken (false). A concurrent transaction claiming the same id
   * waits here until the first one ends, then sees its row.
   */
  claimOperation(operation: SessionRevocationOperationRecord): Promise<boolean>;
  /** The operation with this id and, once its transaction committed, the counts it answered. */
  findOperation(
    operationId: string,
  ): Promise<
    | (SessionRevocationOperationRecord & { readonly result: SvcAdminSessionRevocationResult | null })
    | undefined
  >;
  completeOperation(operationId: string, result: SvcAdminSessionRevocationResult): Promise<void>;
  /** The ids of at most `limit` sessions the selector matches, revoked or not. */
  matchSessions(selector: SessionSelector, limit: number): Promise<string[]>;
  /**
   * Revokes the sessions with these ids and every refresh token of theirs: answers how many sessions
   * were revoked now and how many of the tokens were still usable.
   */
  revokeSessions(
    ids: readonly string[],
    now: number,
    reason: SessionRevocationReason,
  ): Promise<{ sessions: number; activeRefreshTokens: number }>;
  /**
   * Ends the issuer (browser) sessions live at `now` of the user the selector names, else of every user
   * whose sessions it matches; answers how many.
   */
  endBrowserSessions(selector: SessionSelector, now: number): Promise<number>;
}
