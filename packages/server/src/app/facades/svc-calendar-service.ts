import {
  calendarConnectionListQuerySchema,
  svcCalendarAuthorizationUrlRequestSchema,
  svcCalendarConnectionIdSchema,
  svcOwnCalendarConnectionsRequestSchema,
  svcRevokeCalendarConnectionRequestSchema,
  svcStartCalendarConnectionRequestSchema,
  type CalendarConnectionListQuery,
  type Page,
  type SvcCalendarAccessToken,
  type SvcCalendarAuthorization,
  type SvcCalendarAuthorizationUrlRequest,
  type SvcCalendarConnection,
  type SvcCalendarConnectionDeleteResult,
  type SvcOwnCalendarConnectionsRequest,
  type SvcRevokeCalendarConnectionRequest,
  type SvcStartCalendarConnectionRequest,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import type { CalendarAccess } from '../../calendar/calendar-access.js';
import type { CalendarConnections } from '../../calendar/calendar-connections.js';
import type { CalendarConsent } from '../../calendar/calendar-consent.js';
import { SvcInvalidOperationError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { DirectSignIn } from '../../signin/direct-sign-in.js';

export interface SvcCalendarServiceDeps {
  /** `calendar.enabled` (SVC_CALENDAR_ENABLED): off, every operation is refused. */
  readonly enabled: boolean;
  readonly consent: Pick<CalendarConsent, 'start'>;
  readonly access: Pick<CalendarAccess, 'accessToken'>;
  readonly connections: Pick<CalendarConnections, 'list' | 'get' | 'revoke' | 'delete'>;
  /** The first-party session a refresh token proves (the direct routes' callers). */
  readonly sessions: Pick<DirectSignIn, 'requireFirstPartySession'>;
}

/** Where an HTTP call comes from, for the audit trail. */
export interface SvcCalendarCallContext {
  readonly ipAddress?: string;
}

/**
 * The in-process calendar connections API (docs/reference/calendar.md), and what the direct
 * and operator calendar routes call. Requests are validated with the contract schemas (400
 * SvcValidationError). Errors: SvcNotFoundError (404), SvcCalendarError (`reauthorization_required`,
 * `connection_revoked`, `connection_unavailable`, `user_inactive`: 409; `provider_unavailable`,
 * `provider_error`: 502), SvcPublicAuthError `invalid_token` (401, the user's operations without an
 * active first-party session), SvcInvalidOperationError (400) while calendar connections are turned off.
 */
export class SvcCalendarService {
  readonly #deps: SvcCalendarServiceDeps;

  constructor(deps: SvcCalendarServiceDeps) {
    this.#deps = deps;
  }

  /**
   * StartConnectionAsync: the link of the user's consent (the host vouches for the user), Svc's page
   * GET /calendar/consent. Send the user's browser there: signed in to the hosted pages as that user, it
   * goes on to the provider, else back to `returnUri` with `error=login_required`; GET /calendar/callback
   * sends it back to `returnUri` with `calendarConnectionId` or `error`.
   */
  async startConnectionAsync(request: SvcStartCalendarConnectionRequest): Promise<SvcCalendarAuthorization> {
    this.#assertEnabled();
    const input = validate(svcStartCalendarConnectionRequestSchema, request, 'calendar consent');
    return this.#deps.consent.start(input);
  }

  /** POST /calendar/authorization-url: the same for the user of a first-party session, returning to its client. */
  async createAuthorizationUrlAsync(
    request: SvcCalendarAuthorizationUrlRequest,
  ): Promise<SvcCalendarAuthorization> {
    this.#assertEnabled();
    const input = validate(svcCalendarAuthorizationUrlRequestSchema, request, 'calendar consent');
    const session = await this.#deps.sessions.requireFirstPartySession(input.refreshToken);
    return this.#deps.consent.start({
      userId: session.userId,
      clientId: session.clientId,
      connectionId: input.connectionId,
      returnUri: input.returnUri,
      scopes: input.scopes,
    });
  }

  /**
   * GetAccessTokenAsync: an access token for the provider's calendar API with at least a minute to live,
   * refreshed when needed. Never expose it to the user's browser.
   */
  async getAccessTokenAsync(calendarConnectionId: string): Promise<SvcCalendarAccessToken> {
    this.#assertEnabled();
    return this.#deps.access.accessToken(this.#id(calendarConnectionId));
  }

  /** Operators: the connections, newest first, optionally one user's. */
  async listConnectionsAsync(query: CalendarConnectionListQuery = {}): Promise<Page<SvcCalendarConnection>> {
    this.#assertEnabled();
    const input = validate(calendarConnectionListQuerySchema, query, 'query', '(query)');
    return this.#deps.connections.list(input);
  }

  async getConnectionAsync(calendarConnectionId: string): Promise<SvcCalendarConnection> {
    this.#assertEnabled();
    return this.#deps.connections.get(this.#id(calendarConnectionId));
  }

  /** Drops the tokens and revokes the grant at the provider when it can; the record stays, revoked. */
  async revokeConnectionAsync(
    calendarConnectionId: string,
    actor?: AdminActor,
  ): Promise<SvcCalendarConnection> {
    this.#assertEnabled();
    return this.#deps.connections.revoke(this.#id(calendarConnectionId), operator(actor));
  }

  async deleteConnectionAsync(
    calendarConnectionId: string,
    actor?: AdminActor,
  ): Promise<SvcCalendarConnectionDeleteResult> {
    this.#assertEnabled();
    return this.#deps.connections.delete(this.#id(calendarConnectionId), operator(actor));
  }

  /** POST /calendar/connections: the session's user's own connections. */
  async listOwnConnectionsAsync(
    request: SvcOwnCalendarConnectionsRequest,
  ): Promise<Page<SvcCalendarConnection>> {
    this.#assertEnabled();
    const input = validate(svcOwnCalendarConnectionsRequestSchema, request, 'calendar connections request');
    const session = await this.#deps.sessions.requireFirstPartySession(input.refreshToken);
    return this.#deps.connections.list({ limit: input.limit, cursor: input.cursor, userId: session.userId });
  }

  /** POST /calendar/connections/revoke: one of the session's user's own connections (404 for any other). */
  async revokeOwnConnectionAsync(
    request: SvcRevokeCalendarConnectionRequest,
    context: SvcCalendarCallContext = {},
  ): Promise<SvcCalendarConnection> {
    this.#assertEnabled();
    const input = validate(svcRevokeCalendarConnectionRequestSchema, request, 'calendar revocation request');
    const session = await this.#deps.sessions.requireFirstPartySession(input.refreshToken);
    return this.#deps.connections.revoke(
      input.calendarConnectionId,
      { actorType: 'user', actorId: session.userId, ipAddress: context.ipAddress },
      session.userId,
    );
  }

  #id(calendarConnectionId: string): string {
    return validate(svcCalendarConnectionIdSchema, calendarConnectionId, 'calendar connection id', 'id');
  }

  #assertEnabled(): void {
    if (!this.#deps.enabled) {
      throw new SvcInvalidOperationError(
        'Calendar connections are turned off (calendar.enabled, SVC_CALENDAR_ENABLED).',
      );
    }
  }
}

function operator(actor: AdminActor | undefined) {
  return {
    actorType: actor?.actorType ?? 'system',
    actorId: actor?.actorId,
    ipAddress: actor?.ipAddress,
  } as const;
}
