import type { ClientRecord } from '../../directory/repository.js';
import { safeEqual, sha256Hex } from '../../kernel/crypto.js';
import type { SignInOutcome } from '../sign-in-engine.js';
import type { SignedInIdentity } from '../signed-in-identity.js';
import type { AuthorizeCompletion } from './authorize-completion.js';
import {
  toActionOutcome,
  type AuthorizeActionOutcome,
  type AuthorizeStep,
  type BrowserContext,
  type StartedSession,
  type StepRequest,
} from './authorize-outcomes.js';
import type { AuthorizeFlowDeps } from './deps.js';
import { authRequestExpiredError, invitationOperation, invitationUnusableError } from './errors.js';
import type { SignInMethods } from './sign-in-method.js';
import { restartSignIn } from './restart-sign-in.js';
import {
  TERMINAL_AUTH_REQUEST_STATUSES,
  type AuthRequestChange,
  type AuthRequestRecord,
  type AuthRequestStatus,
} from './repository.js';

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
  readonly #methods: () => SignInMethods;

  /** `methods`: the registered methods (built after this, on it). */
  constructor(deps: AuthorizeFlowDeps, completion: AuthorizeCompletion, methods: () => SignInMethods) {
    this.#deps = deps;
    this.#completion = completion;
    this.#methods = methods;
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
  async stepRequest(
    request: AuthRequestRecord,
    // A step that already loaded the request's active client passes it, rather than reading it again.
    activeClient?: Pick<ClientRecord, 'name'>,
  ): Promise<StepRequest> {
    const client = activeClient ?? (await this.#completion.activeClient(request.clientId));
    return { requestId: request.id, clientName: client.name, providers: await this.#methods().providers() };
  }

  /**
   * The page of a pending request: the method that holds it (a code or link it waits for, its
   * invitation, the password of its email), else the identify step.
   */
  async pendingStep(request: AuthRequestRecord): Promise<AuthorizeStep> {
    const stepRequest = await this.stepRequest(request);
    return (
      (await this.#methods().pendingStep(request, stepRequest)) ?? {
        kind: 'identify',
        request: stepRequest,
        email: request.loginHint,
      }
    );
  }

  /** The identify step, prefilled with `email`. */
  async identifyStep(request: AuthRequestRecord, email: string | null): Promise<AuthorizeStep> {
    return { kind: 'identify', request: await this.stepRequest(request), email };
  }

  /** The authentication a signed-in request recorded. */
  identityOf(request: AuthRequestRecord): RecordedAuthentication {
    if (request.userId === null || request.authTime === null) throw authRequestExpiredError();
    return { userId: request.userId, amr: [...(request.amr ?? [])], authTime: request.authTime };
  }

  /**
   * A user proved who they are on one of the request's steps (password, code, link, signup): ends the
   * browser's previous issuer session, records the success and continues with the sign-in engine:
   * organization selection, MFA, consent or the code. An issuer session starts unless a second factor is
   * still due. A sessionless request (its browser did not start it) neither ends nor starts one: an
   * answer carried to another browser must not sign that browser in. `method` names the step in the
   * audit trail.
   *
   * A request bound to an invitation is for the invited address only: its account accepts the
   * invitation now (unless it accepted it already) and signs in to the invitation's
   * organization; another account is refused and the request waits at the invitation step again.
   * Otherwise `organizationId` (the organization of an SSO connection the user signed in through) skips
   * organization selection.
   */
  async completeAuthentication(
    request: AuthRequestRecord,
    browser: BrowserContext,
    authenticated: {
      readonly userId: string;
      readonly amr: readonly string[];
      readonly method: string;
      readonly organizationId?: string;
    },
  ): Promise<AuthorizeActionOutcome> {
    let organizationId: string | null = authenticated.organizationId ?? null;
    if (request.invitationId !== null) {
      const joined = await this.#joinInvitation(request, request.invitationId, browser, authenticated);
      if (joined.kind === 'other_account') {
        // Started over at the invitation: the invited address's page again.
        return {
          kind: 'retry',
          step: await this.pendingStep(joined.restarted),
          error: 'invitation_other_account',
        };
      }
      organizationId = joined.organizationId;
    }
    const now = this.#deps.clock.now();
    const identity = { userId: authenticated.userId, amr: [...authenticated.amr], authTime: now };
    if (!request.sessionless) await this.#deps.browserSessions.end(browser.sessionToken);
    await this.#deps.audit.record({
      kind: 'oauth.hosted_login.succeeded',
      actorType: 'user',
      actorId: identity.userId,
      userId: identity.userId,
      clientId: request.clientId,
      ...(browser.ipAddress === undefined ? {} : { ipAddress: browser.ipAddress }),
      data: { requestId: request.id, method: authenticated.method },
    });
    const outcome = await this.signIn(request, identity, organizationId);
    // No issuer session before a second factor: elsewhere (an invitation page, a silent /authorize) it
    // would count as signed in on the first factor alone. afterSecondFactor starts it.
    const session =
      outcome.kind === 'mfa' || request.sessionless
        ? undefined
        : await this.#deps.browserSessions.create(identity.userId, identity.amr, identity.authTime);
    return this.continueWith(request, 'pending', outcome, identity, session, browser);
  }

  /**
   * Moves a request on after the sign-in engine answered for `identity`: organization selection (the
   * engine's token is minted again on each view of the choice, so nothing of it is stored), the second
   * factor (status `mfa`, holding only the MFA token's hash), or the completion (consent or the code).
   * `session`: an issuer session this post started, for the cookie; `browser`: whose first-factor issuer
   * session ends when MFA is due.
   */
  async continueWith(
    request: AuthRequestRecord,
    from: AuthRequestStatus,
    outcome: SignInOutcome,
    identity: RecordedAuthentication,
    session?: StartedSession,
    browser?: BrowserContext,
  ): Promise<AuthorizeActionOutcome> {
    const next: AuthorizeActionOutcome =
      session === undefined
        ? { kind: 'next', requestId: request.id }
        : { kind: 'next', requestId: request.id, session };
    switch (outcome.kind) {
      case 'organization_selection':
        if (from !== 'organization_selection') {
          await this.#move(request.id, from, {
            status: 'organization_selection',
            ...identity,
            organizationId: null,
            challenge: null,
          });
        }
        return next;
      case 'mfa':
        // An issuer session of the first factor alone (started before organization selection) ends.
        if (browser !== undefined && !request.sessionless) {
          await this.#deps.browserSessions.end(browser.sessionToken);
        }
        await this.#move(request.id, from, {
          status: 'mfa',
          userId: outcome.identity.userId,
          organizationId: outcome.identity.organizationId,
          amr: [...outcome.identity.amr],
          authTime: outcome.identity.authTime,
          challenge: {
            kind: outcome.enrollmentRequired ? 'mfa_enrollment' : 'mfa',
            hash: sha256Hex(outcome.mfaToken),
            target: outcome.methods.join(','),
          },
        });
        return next;
      case 'complete':
        return toActionOutcome(
          await this.#completion.afterSignIn(request, from, outcome.identity, browser),
          request.id,
          session,
        );
    }
  }

  /**
   * The second factor of a request in status `mfa` passed: a new issuer session that records it (so a
   * silent reuse is not asked again; none for a sessionless request), then consent or the code.
   */
  async afterSecondFactor(
    request: AuthRequestRecord,
    browser: BrowserContext,
    identity: SignedInIdentity,
  ): Promise<AuthorizeActionOutcome> {
    let session: StartedSession | undefined;
    if (!request.sessionless) {
      await this.#deps.browserSessions.end(browser.sessionToken);
      session = await this.#deps.browserSessions.create(
        identity.userId,
        [...identity.amr],
        identity.authTime,
      );
    }
    return toActionOutcome(
      await this.#completion.afterSignIn(request, 'mfa', identity, browser),
      request.id,
      session,
    );
  }

  async #move(id: string, from: AuthRequestStatus, change: AuthRequestChange): Promise<void> {
    // Losing the race to another tab's post (or to the expiry) ends this attempt.
    if (!(await this.#deps.requests.transition(id, from, change, this.#deps.clock.now()))) {
      throw authRequestExpiredError();
    }
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

  /**
   * Accepts the request's invitation for the account that just proved a credential, or refuses another
   * account: the request then starts its sign-in over at the invitation (the code or address another
   * account used is forgotten), and nothing of that account is signed in.
   */
  async #joinInvitation(
    request: AuthRequestRecord,
    invitationId: string,
    browser: BrowserContext,
    authenticated: { readonly userId: string; readonly method: string },
  ): Promise<
    | { readonly kind: 'joined'; readonly organizationId: string }
    | { readonly kind: 'other_account'; readonly restarted: AuthRequestRecord }
  > {
    const invitations = this.#deps.invitations;
    if (invitations === undefined) throw invitationUnusableError();
    const joined = await invitationOperation(() =>
      invitations.join(invitationId, authenticated.userId, browser, authenticated.method),
    );
    if (joined.kind === 'joined') return joined;
    const restarted = await restartSignIn(this.#deps.requests, request, null, this.#deps.clock.now());
    return { kind: 'other_account', restarted };
  }

  /**
   * Runs the sign-in engine for the request, resumable by its id; `organizationId` (an invitation's)
   * skips organization selection.
   */
  signIn(
    request: AuthRequestRecord,
    identity: { userId: string; amr: readonly string[]; authTime: number },
    organizationId: string | null = null,
  ): Promise<SignInOutcome> {
    return this.#deps.signIn.signIn({
      ...identity,
      clientId: request.clientId,
      requestedOrganizationId: organizationId,
      flow: AUTHORIZE_FLOW,
      resume: { authRequestId: request.id },
    });
  }
}
