import { safeEqual, sha256Hex } from '../../kernel/crypto.js';
import type { SignInOutcome } from '../../signin/sign-in-engine.js';
import type { AuthorizeCompletion } from './authorize-completion.js';
import {
  toActionOutcome,
  type AuthorizeActionOutcome,
  type AuthorizeStep,
  type BrowserContext,
  type StepRequest,
} from './authorize-outcomes.js';
import type { AuthorizeFlowDeps } from './deps.js';
import { authRequestExpiredError } from './errors.js';
import { TERMINAL_AUTH_REQUEST_STATUSES, type AuthRequestRecord } from './repository.js';

/** The sign-in flow name the engine's pending tokens are bound to. */
export const AUTHORIZE_FLOW = 'authorize';

/**
 * Request ids are `azr_` plus 32 hex digits; anything else is not worth a query (and a NUL would fail
 * PostgreSQL's text comparison with a 500 instead of the start-again page).
 */
const REQUEST_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** How a signed-in request says who signed in. */
export interface RecordedAuthentication {
  readonly userId: string;
  readonly amr: string[];
  readonly authTime: number;
}

/**
 * Access to a stored request for one step of the flow (live, unfinished, from the browser that started
 * it) and the pages its steps show.
 */
export class AuthRequestSteps {
  readonly #deps: AuthorizeFlowDeps;
  readonly #completion: AuthorizeCompletion;

  constructor(deps: AuthorizeFlowDeps, completion: AuthorizeCompletion) {
    this.#deps = deps;
    this.#completion = completion;
  }

  /** The request behind a step, if it is live and belongs to this browser; else the "start again" page. */
  async load(requestId: string | undefined, browser: BrowserContext): Promise<AuthRequestRecord> {
    if (requestId === undefined || !REQUEST_ID.test(requestId)) throw authRequestExpiredError();
    const request = await this.#deps.requests.find(requestId);
    if (
      request === undefined ||
      request.expiresAt <= this.#deps.clock.now() ||
      TERMINAL_AUTH_REQUEST_STATUSES.has(request.status) ||
      browser.browserId === undefined ||
      !safeEqual(request.browserBinding, sha256Hex(browser.browserId))
    ) {
      throw authRequestExpiredError();
    }
    return request;
  }

  /** What every page of the request shows (the client must still be active). */
  async stepRequest(request: AuthRequestRecord): Promise<StepRequest> {
    const client = await this.#completion.activeClient(request.clientId);
    return { requestId: request.id, clientName: client.name };
  }

  /** The identify step, prefilled with `email`. */
  async identifyStep(request: AuthRequestRecord, email: string | null): Promise<AuthorizeStep> {
    return { kind: 'identify', request: await this.stepRequest(request), email };
  }

  /** The consent step: the scopes to grant, the account and its organization. */
  async consentStep(request: AuthRequestRecord): Promise<AuthorizeStep> {
    const client = await this.#completion.activeClient(request.clientId);
    const { userId } = this.identityOf(request);
    const user = await this.#deps.users.findById(userId);
    const organizations =
      request.organizationId === null ? [] : await this.#deps.organizations.options(userId);
    return {
      kind: 'consent',
      request: { requestId: request.id, clientName: client.name },
      scopes: this.#completion.grantedScopes(request, client),
      userEmail: user?.email ?? null,
      organizationName: organizations.find((org) => org.id === request.organizationId)?.name ?? null,
    };
  }

  /** The authentication a signed-in request recorded. */
  identityOf(request: AuthRequestRecord): RecordedAuthentication {
    if (request.userId === null || request.authTime === null) throw authRequestExpiredError();
    return { userId: request.userId, amr: [...(request.amr ?? [])], authTime: request.authTime };
  }

  /**
   * A user proved who they are on one of the request's steps (password, code, link, signup): starts an
   * issuer session (replacing the browser's previous one), records the success and continues with the
   * sign-in engine: organization selection, consent or the code. `method` names the step in the audit
   * trail.
   */
  async completeAuthentication(
    request: AuthRequestRecord,
    browser: BrowserContext,
    authenticated: { readonly userId: string; readonly amr: readonly string[]; readonly method: string },
  ): Promise<AuthorizeActionOutcome> {
    const now = this.#deps.clock.now();
    const identity = { userId: authenticated.userId, amr: [...authenticated.amr], authTime: now };
    await this.#deps.browserSessions.end(browser.sessionToken);
    const session = await this.#deps.browserSessions.create(identity.userId, identity.amr, identity.authTime);
    await this.#deps.audit.record({
      kind: 'oauth.hosted_login.succeeded',
      actorType: 'user',
      actorId: identity.userId,
      userId: identity.userId,
      clientId: request.clientId,
      ...(browser.ipAddress === undefined ? {} : { ipAddress: browser.ipAddress }),
      data: { requestId: request.id, method: authenticated.method },
    });
    const outcome = await this.signIn(request, identity);
    if (outcome.kind === 'organization_selection') {
      if (
        !(await this.#deps.requests.transition(
          request.id,
          'pending',
          { status: 'organization_selection', ...identity, organizationId: null, challenge: null },
          now,
        ))
      ) {
        throw authRequestExpiredError();
      }
      return { kind: 'next', requestId: request.id, session };
    }
    return toActionOutcome(
      await this.#completion.afterSignIn(request, 'pending', outcome.identity),
      request.id,
      session,
    );
  }

  /** Records a failed sign-in attempt on one of the request's steps (`method` as above). */
  async recordFailure(request: AuthRequestRecord, browser: BrowserContext, method: string): Promise<void> {
    await this.#deps.audit.record({
      kind: 'oauth.hosted_login.failed',
      actorType: 'user',
      clientId: request.clientId,
      ...(browser.ipAddress === undefined ? {} : { ipAddress: browser.ipAddress }),
      data: { requestId: request.id, method },
    });
  }

  /** Runs the sign-in engine for the request, resumable by its id. */
  signIn(
    request: AuthRequestRecord,
    identity: { userId: string; amr: readonly string[]; authTime: number },
  ): Promise<SignInOutcome> {
    return this.#deps.signIn.signIn({
      ...identity,
      clientId: request.clientId,
      requestedOrganizationId: null,
      flow: AUTHORIZE_FLOW,
      resume: { authRequestId: request.id },
    });
  }
}
