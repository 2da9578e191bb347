import {
  MAX_SESSIONS_PER_REVOCATION,
  type Page,
  type SessionListInput,
  type SvcAdminSessionRevocationInput,
  type SvcAdminSessionRevocationPreview,
  type SvcAdminSessionRevocationResult,
} from '@svc/contract';
import { SvcConflictError, SvcNotFoundError, SvcValidationError } from '../../kernel/errors.js';
import type { SessionSelector } from './repository.js';
import { findClientByEitherId } from '../../directory/client-lookup.js';
import { actorFields, type AdminActor } from '../../audit/actor.js';
import type { DirectoryDeps } from '../../directory/deps.js';
import { requireEmailKey } from '../../directory/email-key.js';
import type {
  OperatorSessionRecord,
  OperatorSessionStore,
  SessionRevocationTransaction,
} from './operator-session-repository.js';

/** The reason stored on the sessions an operator revokes (the operator's own `reason` goes to the audit). */
const OPERATOR_REVOCATION = 'admin_revoked';

export interface OperatorSessionsDeps extends DirectoryDeps {
  readonly sessions: OperatorSessionStore;
}

/**
 * The operator's view of token sessions (docs/reference/operator-api.md "Sessions": `GET /sessions`,
 * `POST /sessions/revocation/preview` and `POST /sessions/revocation`): list them, count what a selector
 * matches, and revoke it. A revocation writes the database in one transaction (the sessions, their
 * refresh tokens, the browser sessions it ends and the operation record), so refresh, validation and a
 * silent /authorize refuse them on every node at once.
 */
export class OperatorSessions {
  readonly #deps: OperatorSessionsDeps;

  constructor(deps: OperatorSessionsDeps) {
    this.#deps = deps;
  }

  /**
   * Newest first, with each session's user and client; `clientId` may be the client's record id, and
   * `email` names the user by the address's lookup key (no such user: an empty page).
   */
  async list(input: SessionListInput): Promise<Page<OperatorSessionRecord>> {
    const { limit, cursor, email, organizationId, clientId, active } = input;
    let { userId } = input;
    if (email !== undefined) {
      const owner = await this.#deps.repositories.users.findByEmailKey(requireEmailKey(email));
      if (owner === undefined || (userId !== undefined && userId !== owner.id)) {
        return { data: [], nextCursor: null };
      }
      userId = owner.id;
    }
    const filter = {
      userId,
      organizationId,
      clientId: clientId === undefined ? undefined : await this.#clientId(clientId),
      active,
    };
    return this.#deps.sessions.list(filter, { limit, cursor }, this.#deps.clock.now());
  }

  /** What an execution would match now; nothing is written. Zero matches are a count, not a 404. */
  async preview(input: SvcAdminSessionRevocationInput): Promise<SvcAdminSessionRevocationPreview> {
    return this.#deps.sessions.count(await this.#selector(input), this.#deps.clock.now());
  }

  /**
   * Revokes every session the selector matches, with its refresh tokens, and ends the issuer (browser)
   * sessions of the user it names or of the users of those sessions, in the same transaction (else
   * `prompt=none` would sign them in again at once). Refused with nothing written: without
   * `confirm: true` (400); when neither a session nor a browser session matches (the generic 404); when more than
   * MAX_SESSIONS_PER_REVOCATION match or `expectedMatchedSessions` differs from the count now (409). With
   * an `operationId`, a retry with the same selector and reason answers the first execution's counts
   * and revokes nothing more; another selector or reason is a 409. Audited as `admin.sessions.revoked`.
   */
  async revoke(
    input: SvcAdminSessionRevocationInput,
    actor?: AdminActor,
  ): Promise<SvcAdminSessionRevocationResult> {
    if (input.confirm !== true) {
      throw new SvcValidationError(
        'Set confirm to true to revoke the sessions; POST /sessions/revocation/preview counts them first.',
        [{ path: 'confirm', message: 'must be true' }],
      );
    }
    const selector = await this.#selector(input);
    const selectorJson = canonicalSelector(selector);
    const reason = input.reason ?? null;
    const { operationId } = input;
    const now = this.#deps.clock.now();
    const outcome = await this.#deps.sessions.transaction(async (tx) => {
      if (operationId !== undefined) {
        const claimed = await tx.claimOperation({ operationId, selectorJson, reason, createdAt: now });
        if (!claimed) return { replayed: await earlierResult(tx, operationId, selectorJson, reason) };
      }
      const ids = await tx.matchSessions(selector, MAX_SESSIONS_PER_REVOCATION + 1);
      assertRevocable(ids.length, input.expectedMatchedSessions);
      const revoked = await tx.revokeSessions(ids, now, OPERATOR_REVOCATION);
      const endedBrowserSessions = await tx.endBrowserSessions(selector, now);
      // Nothing matched: the generic 404 (and the rollback of the operation id's claim).
      if (ids.length === 0 && endedBrowserSessions === 0) throw new SvcNotFoundError('Not found.');
      const result: SvcAdminSessionRevocationResult = {
        matchedSessions: ids.length,
        newlyRevokedSessions: revoked.sessions,
        alreadyRevokedSessions: ids.length - revoked.sessions,
        newlyRevokedRefreshTokens: revoked.activeRefreshTokens,
        endedBrowserSessions,
      };
      if (operationId !== undefined) await tx.completeOperation(operationId, result);
      return { revoked: result };
    });
    if ('replayed' in outcome) return outcome.replayed;
    await this.#deps.audit.record({
      kind: 'admin.sessions.revoked',
      ...actorFields(actor),
      ...(selector.userId === undefined ? {} : { userId: selector.userId }),
      ...(selector.organizationId === undefined ? {} : { organizationId: selector.organizationId }),
      ...(selector.clientId === undefined ? {} : { clientId: selector.clientId }),
      data: { selector, reason, operationId: operationId ?? null, ...outcome.revoked },
    });
    return outcome.revoked;
  }

  /** The request's selector, its client named by the OAuth client_id that sessions store. */
  async #selector(input: SvcAdminSessionRevocationInput): Promise<SessionSelector> {
    const { sessionId, userId, organizationId, clientApplicationId } = input;
    const fields = {
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(userId === undefined ? {} : { userId }),
      ...(organizationId === undefined ? {} : { organizationId }),
      ...(clientApplicationId === undefined ? {} : { clientId: await this.#clientId(clientApplicationId) }),
    };
    // The contract schema has refused a request naming none of them.
    return fields as SessionSelector;
  }

  /**
   * The client_id of the client this names (findClientByEitherId). A name of no client stays as it is:
   * it matches no session.
   */
  async #clientId(name: string): Promise<string> {
    return (await findClientByEitherId(this.#deps.repositories.clients, name))?.clientId ?? name;
  }
}

/** The selector as JSON with a fixed key order, so that equal selectors compare equal as text. */
function canonicalSelector(selector: SessionSelector): string {
  const { sessionId, userId, organizationId, clientId } = selector;
  return JSON.stringify({ sessionId, userId, organizationId, clientId });
}

/** The answer of an operation id used before: its counts for the same request, a 409 for another. */
async function earlierResult(
  tx: SessionRevocationTransaction,
  operationId: string,
  selectorJson: string,
  reason: string | null,
): Promise<SvcAdminSessionRevocationResult> {
  const earlier = await tx.findOperation(operationId);
  if (
    earlier === undefined ||
    earlier.result === null ||
    earlier.selectorJson !== selectorJson ||
    earlier.reason !== reason
  ) {
    throw new SvcConflictError(
      `The operationId '${operationId}' was used for another selector or reason; choose a new operationId.`,
    );
  }
  return earlier.result;
}

/**
 * docs/reference/operator-api.md "Revocation": too many matches or a changed count is refused (nothing
 * matched is the caller's 404).
 */
function assertRevocable(matched: number, expected: number | undefined): void {
  if (matched > MAX_SESSIONS_PER_REVOCATION) {
    throw new SvcConflictError(
      `The selector matches more than ${MAX_SESSIONS_PER_REVOCATION.toLocaleString('en-US')} sessions, the most one revocation may revoke; narrow it (for example by userId or clientApplicationId).`,
    );
  }
  if (expected !== undefined && expected !== matched) {
    throw new SvcConflictError(
      `The selector matches ${matched} sessions now, not the expectedMatchedSessions ${expected}; preview again and confirm the new count.`,
    );
  }
}
