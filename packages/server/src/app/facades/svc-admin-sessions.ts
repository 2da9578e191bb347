import {
  sessionListQuerySchema,
  svcAdminSessionRevocationRequestSchema,
  type Page,
  type SessionListQuery,
  type SvcAdminSessionRevocationPreview,
  type SvcAdminSessionRevocationRequest,
  type SvcAdminSessionRevocationResult,
  type SvcSession,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import type { OperatorSessions } from '../../oauth/tokens/operator-sessions.js';
import { toSvcSession } from '../../oauth/tokens/session-view.js';
import type { Clock } from '../../kernel/clock.js';
import { validate } from '../../kernel/validation.js';

export interface SvcAdminSessionsDeps {
  /** The token sessions as operators list and revoke them (counted, limited and audited there). */
  readonly operatorSessions: OperatorSessions;
  /** A listed session's status (active or not) is read at this clock's now. */
  readonly clock: Clock;
}

/**
 * The token-session operations of SvcAdminService (docs/reference/operator-api.md "Sessions"). Requests are validated with the
 * contract schemas of the HTTP routes (400).
 */
export class SvcAdminSessions {
  readonly #sessions: OperatorSessions;
  readonly #clock: Clock;

  constructor(deps: SvcAdminSessionsDeps) {
    this.#sessions = deps.operatorSessions;
    this.#clock = deps.clock;
  }

  /** Token sessions, newest first, filtered by userId, organizationId, clientId (or record id) and active. */
  async listSessionsAsync(request: SessionListQuery = {}): Promise<Page<SvcSession>> {
    const input = validate(sessionListQuerySchema, request, 'session list request');
    const page = await this.#sessions.list(input);
    const now = this.#clock.now();
    return { data: page.data.map((session) => toSvcSession(session, now)), nextCursor: page.nextCursor };
  }

  /** How many sessions the request's selector matches now and their usable refresh tokens; no change. */
  async previewSessionRevocationAsync(
    request: SvcAdminSessionRevocationRequest,
  ): Promise<SvcAdminSessionRevocationPreview> {
    return this.#sessions.preview(
      validate(svcAdminSessionRevocationRequestSchema, request, 'session revocation request'),
    );
  }

  /**
   * Revokes the sessions the request's selector matches (`confirm: true` required), at once on every
   * node: 404 when none matches, 409 when more than 10,000 do, when `expectedMatchedSessions` differs,
   * or when the `operationId` was used for another selector or reason (the same one answers the first
   * execution's counts).
   */
  async revokeSessionsAsync(
    request: SvcAdminSessionRevocationRequest,
    actor?: AdminActor,
  ): Promise<SvcAdminSessionRevocationResult> {
    return this.#sessions.revoke(
      validate(svcAdminSessionRevocationRequestSchema, request, 'session revocation request'),
      actor,
    );
  }
}
