import { emailSchema } from '@svc/contract';
import { DAY_MS, MINUTE_MS } from '../../kernel/clock.js';
import { SvcPublicAuthError } from '../../kernel/errors.js';
import { AMR_PASSWORD } from '../direct-sign-in.js';
import type { PasswordAuthentication } from '../password-authenticator.js';
import type { SignInOutcome } from '../sign-in-engine.js';
import { AUTHORIZE_FLOW, AuthRequestSteps } from './auth-request-steps.js';
import { AuthorizeCompletion } from './authorize-completion.js';
import {
  refusedRetry,
  type AuthorizeActionOutcome,
  type AuthorizeStartOutcome,
  type AuthorizeStep,
  type AuthorizeStepOutcome,
  type BrowserContext,
  type StepError,
  waitingStep,
} from './authorize-outcomes.js';
import { parseAuthorizeRequest } from '../../oauth/authorize/authorize-request.js';
import type { AuthRequestRecord } from './repository.js';
import { ConsentActions } from '../methods/consent/consent-actions.js';
import { DeviceSteps } from '../methods/device/device-steps.js';
import { InvitationSteps } from '../methods/invitation/invitation-steps.js';
import { MfaSteps } from '../methods/mfa/mfa-steps.js';
import type { AuthorizeFlowDeps } from './deps.js';
import { passwordOnlyHomeRealm } from './home-realm.js';
import { errorRedirect } from '../../oauth/authorize/redirect.js';
import { canReuseSession } from './session-reuse.js';
import { StartAuthorization } from './start-authorization.js';

/** How long a user has to finish signing in after the client sent them to /authorize. */
export const AUTH_REQUEST_LIFETIME_MS = 30 * MINUTE_MS;

/** Record ids Svc issues are printable ASCII; anything else is no organization of the user. */
const RECORD_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * The lifecycle of a hosted authorization request (SPEC.md "Authorization request (hosted/headless):
 * completed action → redirect with authorization code; organization selection, MFA, consent return
 * another view first"):
 *
 * | from | event | to |
 * |---|---|---|
 * | (GET /authorize) | valid request, no reusable issuer session | pending |
 * | (GET /authorize) | reusable session | organization_selection, consent or completed (as below) |
 * | (GET /authorize) | usable invitation token (never a session) | pending, bound to the invitation |
 * | pending | identify (stores the email; also from the signed-in statuses: "Use a different account") | pending |
 * | pending | password ok, several organizations | organization_selection |
 * | pending, organization_selection | organization decided, consent needed | consent |
 * | pending, organization_selection | organization decided, no consent needed | completed (code issued) |
 * | consent | approve (grant recorded) | completed (code issued) |
 * | consent | deny | denied (access_denied to the client) |
 * | any signed-in status | positive max_age outlasted at code issuance | pending (sign in again) |
 *
 * Device requests (started at /device with a user code) follow the same sign-in steps and then wait in
 * `device_approval` instead of consent or a code (./device-steps.ts).
 *
 * Every step after /authorize must come from the browser that started the request (its binding) and
 * before the request expires (30 minutes); a terminal request answers every step with the "start again"
 * page. Transitions are conditional updates, so a request issues at most one code.
 */
export class AuthorizeFlow {
  readonly #deps: AuthorizeFlowDeps;
  readonly #completion: AuthorizeCompletion;
  readonly #start: StartAuthorization;
  readonly #steps: AuthRequestSteps;
  /**
   * The request access and completion every step shares, for the step families wired beside the flow
   * (email and phone codes, magic links, signup).
   */
  readonly steps: AuthRequestSteps;
  readonly #consent: ConsentActions;
  /** The second-factor steps of a request in status `mfa` (POST /mfa/verify, /mfa/totp/enroll/verify). */
  readonly mfa: MfaSteps;
  /** The hosted device verification (/device, /device/verify, /device/approve, /device/deny). */
  readonly device: DeviceSteps;
  /** The signup of a request bound to an invitation (POST /login/invitation/signup). */
  readonly invitations: InvitationSteps;

  constructor(deps: AuthorizeFlowDeps) {
    this.#deps = deps;
    this.#completion = new AuthorizeCompletion(deps);
    this.#steps = new AuthRequestSteps(deps, this.#completion);
    this.steps = this.#steps;
    this.#consent = new ConsentActions(deps, this.#completion, this.#steps);
    this.mfa = new MfaSteps(deps, this.#steps);
    this.invitations = new InvitationSteps(deps, this.#steps);
    this.device = new DeviceSteps(deps, this.#completion, this.#steps, {
      lifetimeMs: deps.requestLifetimeMs ?? AUTH_REQUEST_LIFETIME_MS,
    });
    this.#start = new StartAuthorization(deps, this.#completion, {
      lifetimeMs: deps.requestLifetimeMs ?? AUTH_REQUEST_LIFETIME_MS,
      flow: AUTHORIZE_FLOW,
    });
  }

  /** GET /authorize: parse, then sign in silently, ask the user, or answer the client with an error. */
  async start(
    query: unknown,
    browser: BrowserContext & { readonly browserId: string },
  ): Promise<AuthorizeStartOutcome> {
    const parsed = await parseAuthorizeRequest(query, {
      findClient: (clientId) => this.#deps.findClient(clientId),
      requireTlsRedirects: this.#deps.requireTlsRedirects,
    });
    if (parsed.kind === 'error_page') return parsed;
    if (parsed.kind === 'redirect_error') {
      return {
        kind: 'redirect',
        location: errorRedirect(parsed, parsed.error, parsed.description, this.#deps.issuer),
      };
    }
    const request = parsed.request;
    if (request.invitationToken !== null) {
      return this.#start.runBound(request, request.invitationToken, browser.browserId);
    }
    const session =
      browser.sessionToken === undefined
        ? null
        : await this.#deps.browserSessions.resolve(browser.sessionToken);
    const reusable = session !== null && canReuseSession(request, session.authTime, this.#deps.clock.now());
    return this.#start.run(request, browser.browserId, reusable ? session : null);
  }

  /**
   * GET /login: the page the request needs now. `identify` shows the identify step whatever the
   * status ("Use a different account"); posting it starts the sign-in over.
   */
  async step(
    requestId: string | undefined,
    browser: BrowserContext,
    options: { identify?: boolean } = {},
  ): Promise<AuthorizeStepOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (options.identify === true) {
      return {
        kind: 'step',
        step: await this.#steps.identifyStep(request, request.email ?? request.loginHint),
      };
    }
    switch (request.status) {
      case 'pending':
        return { kind: 'step', step: await this.#pendingStep(request) };
      case 'organization_selection': {
        // The choice is made with a fresh single-use token each time the page is shown (the token is
        // a secret: it lives in the form, never in a URL or the database).
        const outcome = await this.#steps.signIn(request, this.#steps.identityOf(request));
        if (outcome.kind === 'organization_selection') {
          return {
            kind: 'step',
            step: {
              kind: 'select_organization',
              request: await this.#steps.stepRequest(request),
              pendingAuthToken: outcome.pendingAuthToken,
              organizations: outcome.organizations,
            },
          };
        }
        const moved = await this.#steps.continueWith(
          request,
          request.status,
          outcome,
          this.#steps.identityOf(request),
          undefined,
          browser,
        );
        return moved.kind === 'redirect' ? moved : this.step(request.id, browser);
      }
      case 'mfa':
        return { kind: 'step', step: await this.mfa.step(request) };
      case 'device_approval':
        return { kind: 'step', step: await this.device.approvalStep(request, browser) };
      default:
        return { kind: 'step', step: await this.#steps.consentStep(request) };
    }
  }

  /** POST /login/identify: home-realm discovery for the email, then (password realm) the password step. */
  async identify(
    requestId: string | undefined,
    browser: BrowserContext,
    rawEmail: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    const typed = rawEmail?.trim() ?? '';
    if (typed === '') return this.#retry(await this.#steps.identifyStep(request, null), 'email_required');
    const email = emailSchema.safeParse(typed);
    if (!email.success) {
      return this.#retry(await this.#steps.identifyStep(request, typed), 'email_invalid');
    }
    // Every address signs in with its password until SSO connections exist (the `sso` realm's seam).
    await (this.#deps.homeRealm ?? passwordOnlyHomeRealm)(email.data);
    // Identifying (again) starts the sign-in over: whoever signed in before is forgotten.
    await this.#deps.requests.transition(
      request.id,
      request.status,
      {
        status: 'pending',
        email: email.data,
        userId: null,
        organizationId: null,
        amr: null,
        authTime: null,
        challenge: null,
      },
      this.#deps.clock.now(),
    );
    return { kind: 'next', requestId: request.id };
  }

  /**
   * POST /login/password: checks the password of the identified email. A failure re-renders the step
   * with one message whether or not the account exists, a check refused by the limits on guessing with
   * `too_many_attempts` and the wait; success starts an issuer session (replacing the browser's previous
   * one) and continues with the sign-in engine.
   */
  async password(
    requestId: string | undefined,
    browser: BrowserContext,
    password: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (request.status !== 'pending' || request.email === null)
      return { kind: 'next', requestId: request.id };
    // A request bound to an invitation signs in the invited address, whatever was identified since.
    const step: AuthorizeStep =
      request.invitationId === null
        ? { kind: 'password', request: await this.#steps.stepRequest(request), email: request.email }
        : await this.#steps.invitationStep(request);
    const email = step.kind === 'invitation' ? step.invitation.summary.email : request.email;
    if (password === undefined || password === '') return this.#retry(step, 'password_required');
    let result: PasswordAuthentication;
    try {
      result = await this.#deps.passwords.authenticate(email, password, {
        operation: 'authorize',
        ipAddress: browser.ipAddress,
        clientId: request.clientId,
      });
    } catch (error) {
      return refusedRetry(error, step);
    }
    if (!result.ok) {
      await this.#steps.recordFailure(request, browser, 'password');
      return this.#retry(step, 'invalid_credentials');
    }
    return this.#steps.completeAuthentication(request, browser, {
      userId: result.user.id,
      amr: [AMR_PASSWORD],
      method: 'password',
    });
  }

  /** POST /login/select-organization: continues the engine's organization_selection with its token. */
  async selectOrganization(
    requestId: string | undefined,
    browser: BrowserContext,
    pendingAuthToken: string | undefined,
    organizationId: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    const next: AuthorizeActionOutcome = { kind: 'next', requestId: request.id };
    if (request.status !== 'organization_selection' || pendingAuthToken === undefined) return next;
    // The token must be this request's own (same user, same request), still active for this flow.
    const pending = await this.#deps.signIn.pendingSelection(pendingAuthToken, AUTHORIZE_FLOW);
    if (pending?.resume?.authRequestId !== request.id || pending.userId !== request.userId) return next;
    const retry = async () =>
      this.#retry(
        {
          kind: 'select_organization',
          request: await this.#steps.stepRequest(request),
          pendingAuthToken,
          organizations: pending.organizations,
        },
        'organization_required',
      );
    if (organizationId === undefined || !RECORD_ID.test(organizationId)) return retry();
    let outcome: SignInOutcome;
    try {
      outcome = await this.#deps.signIn.selectOrganization({
        pendingAuthToken,
        organizationId,
        flow: AUTHORIZE_FLOW,
      });
    } catch (error) {
      // Not a member (access_denied; the token stays usable): choose again. A token used meanwhile: the
      // page is shown again with a fresh one.
      if (error instanceof SvcPublicAuthError && error.code === 'access_denied') return retry();
      if (error instanceof SvcPublicAuthError && error.code === 'invalid_token') return next;
      throw error;
    }
    return this.#steps.continueWith(
      request,
      'organization_selection',
      outcome,
      this.#steps.identityOf(request),
      undefined,
      browser,
    );
  }

  /**
   * Deletes requests that expired more than `graceMs` ago (a day by default, so that a late "start
   * again" page still finds nothing odd); returns how many. For a periodic maintenance job.
   */
  deleteExpired(graceMs = DAY_MS): Promise<number> {
    return this.#deps.requests.deleteExpired(this.#deps.clock.now() - graceMs);
  }

  /** POST /consent/approve: records the grant (merged into any earlier one) and issues the code. */
  async approveConsent(
    requestId: string | undefined,
    browser: BrowserContext,
  ): Promise<AuthorizeActionOutcome> {
    return this.#consent.approve(await this.#steps.load(requestId, browser));
  }

  /** POST /consent/deny: SPEC.md "deny redirects to the client with access_denied". */
  async denyConsent(requestId: string | undefined, browser: BrowserContext): Promise<AuthorizeActionOutcome> {
    return this.#consent.deny(await this.#steps.load(requestId, browser));
  }

  /** A pending request waits for a code or link it sent, else for the email, else for the password. */
  async #pendingStep(request: AuthRequestRecord): Promise<AuthorizeStep> {
    const stepRequest = await this.#steps.stepRequest(request);
    const waiting = request.challenge === null ? undefined : waitingStep(stepRequest, request.challenge);
    if (waiting !== undefined) return waiting;
    if (request.invitationId !== null) return this.#steps.invitationStep(request);
    if (request.email === null) return this.#steps.identifyStep(request, request.loginHint);
    return { kind: 'password', request: stepRequest, email: request.email };
  }

  #retry(step: AuthorizeStep, error: StepError): AuthorizeActionOutcome {
    return { kind: 'retry', step, error };
  }
}
