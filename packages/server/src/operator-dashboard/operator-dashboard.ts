import { decodeJwt } from 'jose';
import type { ClientRecord, UserRepository } from '../directory/repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import { HOUR_MS, type Clock } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import type { OperatorSessionDecision, OperatorSessionRequest } from '../kernel/operator-session.js';
import type { SessionCsrf } from '../kernel/session-csrf.js';
import { OAuthError } from '../oauth/errors.js';
import { s256Challenge } from '../oauth/pkce.js';
import type { AuthorizationCodes } from '../oauth/tokens/authorization-codes.js';
import type { SessionRevocation } from '../oauth/tokens/session-revocation.js';
import { dashboardSecretIn } from './dashboard-cookie.js';
import type { LoginStates } from './login-state.js';
import type { DashboardSessionRepository, LiveDashboardSession } from './repository.js';

/** How long a dashboard session lasts at most (never past its token session's own lifetime). */
export const DASHBOARD_SESSION_LIFETIME_MS = 8 * HOUR_MS;

export interface OperatorDashboardDeps {
  readonly repository: DashboardSessionRepository;
  /** The built-in dashboard client, made sure of and read at each sign-in (dashboard-client.ts). */
  readonly dashboardClient: () => Promise<ClientRecord | undefined>;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly codes: Pick<AuthorizationCodes, 'redeem'>;
  /** Runs the code exchange counting an unknown code against the address, as /token does. */
  readonly countingCodes: <T>(ipAddress: string, redeem: () => Promise<T>) => Promise<T>;
  readonly revocation: Pick<SessionRevocation, 'logout'>;
  readonly csrf: SessionCsrf;
  readonly loginStates: LoginStates;
  /** `{issuer}/authorize` and the dashboard's callback, `{PublicOrigin}{dashboard base}/callback`. */
  readonly urls: { readonly authorize: string; readonly callback: string };
  readonly clientId: string;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The end of a sign-in at the callback. */
export type FinishedLogin =
  | {
      readonly kind: 'started';
      readonly secret: string;
      readonly expiresAt: number;
      /** The console page the sign-in began from (checked by the route before it was sealed). */
      readonly returnTo: string | null;
    }
  | {
      readonly kind: 'refused';
      readonly reason: 'stale' | 'refused_upstream' | 'invalid_code' | 'not_operator';
    };

/** What a request's dashboard cookie allows. */
export type DashboardDecision =
  { readonly kind: 'operator'; readonly live: LiveDashboardSession } | { readonly kind: 'refused' };

/**
 * The bundled dashboards' sign-in (docs/reference/operator-api.md "Console sign-in and session"): an operator
 * signs in through Svc's own hosted login with the built-in first-party dashboard client (authorization code
 * with PKCE, exchanged in process), and a server-side session (the cookie's secret stored as SHA-256) then
 * authorizes the dashboards' calls to the operator APIs. Every request reads the session with its token
 * session and its user, so signing out, a revoked session, a deactivated user or a removed operator
 * flag holds at once on every node. Audited as `dashboard.session.started`, `.refused` and `.ended`.
 */
export class OperatorDashboard {
  readonly #deps: OperatorDashboardDeps;

  constructor(deps: OperatorDashboardDeps) {
    this.#deps = deps;
  }

  /** GET /login: where to send the browser, and the sealed state (with `returnTo`) for its cookie. */
  async beginLogin(returnTo: string | null): Promise<{ readonly location: string; readonly cookie: string }> {
    const { ids, clock, urls, clientId } = this.#deps;
    await this.#deps.dashboardClient();
    const login = { state: ids.secret(), verifier: ids.secret(), returnTo };
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: urls.callback,
      state: login.state,
      code_challenge: s256Challenge(login.verifier),
      code_challenge_method: 'S256',
      // An operator console asks for the password every time: a user's open sign-in (perhaps another
      // account's, or one the dashboards just refused) is never reused silently.
      prompt: 'login',
    });
    return {
      location: `${urls.authorize}?${query.toString()}`,
      cookie: this.#deps.loginStates.seal(login, clock.now()),
    };
  }

  /**
   * GET /callback: the state must be the one this browser's cookie carries; the code is exchanged with
   * its verifier; only an operator gets a dashboard session (anyone else's token session ends at once).
   */
  async finishLogin(
    query: {
      readonly code?: string | undefined;
      readonly state?: string | undefined;
      readonly error?: string | undefined;
    },
    cookie: string | undefined,
    context: { readonly ipAddress: string },
  ): Promise<FinishedLogin> {
    const { clock, loginStates } = this.#deps;
    const login = loginStates.open(cookie, clock.now());
    if (login === undefined || query.state !== login.state) return { kind: 'refused', reason: 'stale' };
    if (query.error !== undefined || query.code === undefined) {
      return { kind: 'refused', reason: 'refused_upstream' };
    }
    const client = await this.#deps.dashboardClient();
    if (client?.active !== true) return { kind: 'refused', reason: 'refused_upstream' };
    const code = query.code;
    let issued;
    try {
      issued = await this.#deps.countingCodes(context.ipAddress, () =>
        this.#deps.codes.redeem({
          code,
          client,
          redirectUri: this.#deps.urls.callback,
          codeVerifier: login.verifier,
        }),
      );
    } catch (error) {
      if (error instanceof OAuthError) return { kind: 'refused', reason: 'invalid_code' };
      throw error;
    }
    const userId = String(decodeJwt(issued.accessToken).sub);
    const user = await this.#deps.users.findById(userId);
    if (user?.active !== true || !user.isOperator) {
      await this.#deps.revocation.logout({ sessionId: issued.sessionId });
      await this.#record('dashboard.session.refused', userId, context.ipAddress, { reason: 'not_operator' });
      return { kind: 'refused', reason: 'not_operator' };
    }
    const now = clock.now();
    const secret = this.#deps.ids.secret();
    const record = {
      id: this.#deps.ids.id('dsh'),
      secretHash: sha256Hex(secret),
      tokenSessionId: issued.sessionId,
      userId,
      createdAt: now,
      expiresAt: now + DASHBOARD_SESSION_LIFETIME_MS,
    };
    await this.#deps.repository.insert(record);
    await this.#record('dashboard.session.started', userId, context.ipAddress, {
      dashboardSessionId: record.id,
    });
    return { kind: 'started', secret, expiresAt: record.expiresAt, returnTo: login.returnTo };
  }

  /**
   * The operator behind a cookie's secret. Nothing is counted or locked: a secret is 256 bits the
   * server chose, so guessing one is pointless, and an unknown one is mostly a session that ended.
   */
  async authorize(secret: string): Promise<DashboardDecision> {
    const live = await this.#deps.repository.findLive(sha256Hex(secret), this.#deps.clock.now());
    return live === undefined ? { kind: 'refused' } : { kind: 'operator', live };
  }

  /**
   * The operator guard's question (kernel/operator-session.ts): undefined without a
   * dashboard cookie; a state-changing call also needs the session's antiforgery token and origin.
   */
  async decide(request: OperatorSessionRequest): Promise<OperatorSessionDecision | undefined> {
    const secret = dashboardSecretIn(request.cookieHeader);
    if (secret === undefined) return undefined;
    const decision = await this.authorize(secret);
    if (decision.kind !== 'operator') return decision;
    if (
      !request.safe &&
      !this.csrfAllows(decision.live, request.csrfToken, request.origin, request.referer)
    ) {
      return { kind: 'csrf_failed' };
    }
    return { kind: 'operator', operatorId: decision.live.user.id };
  }

  /** The session's antiforgery token, for the dashboards' state-changing calls (`x-svc-csrf`). */
  csrfToken(live: LiveDashboardSession): string {
    return this.#deps.csrf.tokenFor(live.session.id);
  }

  /** Whether a state-changing call carries the session's token and comes from the PublicOrigin. */
  csrfAllows(live: LiveDashboardSession, token: unknown, origin?: string, referer?: string): boolean {
    return this.#deps.csrf.allows(live.session.id, token, origin, referer);
  }

  /** Signs out: the dashboard session and its token session end. */
  async end(live: LiveDashboardSession, ipAddress: string): Promise<void> {
    const deleted = await this.#deps.repository.delete(live.session.secretHash);
    if (deleted === undefined) return;
    await this.#deps.revocation.logout({ sessionId: deleted.tokenSessionId });
    await this.#record('dashboard.session.ended', deleted.userId, ipAddress, {
      dashboardSessionId: deleted.id,
    });
  }

  #record(kind: string, userId: string, ipAddress: string, data: Record<string, unknown>): Promise<void> {
    return this.#deps.audit.record({
      kind,
      actorType: 'user',
      actorId: userId,
      userId,
      clientId: this.#deps.clientId,
      ipAddress,
      data,
    });
  }
}
