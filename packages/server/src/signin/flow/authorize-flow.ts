import { emailSchema } from '@svc/contract';
import { DAY_MS, MINUTE_MS } from '../../kernel/clock.js';
import { AUTHORIZE_FLOW, AuthRequestSteps } from './auth-request-steps.js';
import { AuthorizeCompletion } from './authorize-completion.js';
import type {
  AuthorizeActionOutcome,
  AuthorizeStartOutcome,
  AuthorizeStep,
  AuthorizeStepOutcome,
  BrowserContext,
  StepError,
} from './authorize-outcomes.js';
import { parseAuthorizeRequest } from '../../oauth/authorize/authorize-request.js';
import type { AuthorizeFlowDeps } from './deps.js';
import { authRequestExpiredError } from './errors.js';
import { errorRedirect } from '../../oauth/authorize/redirect.js';
import { canReuseSession } from './session-reuse.js';
import { SignInMethods } from './sign-in-method.js';
import type { SignInMethodRegistration } from './method-context.js';
import { StartAuthorization } from './start-authorization.js';
import { emailStepError } from './step-error-messages.js';

/** How long a user has to finish signing in after the client sent them to /authorize. */
export const AUTH_REQUEST_LIFETIME_MS = 30 * MINUTE_MS;

/**
 * The sign-in engine's flow of an authorization request (docs/reference/sign-in.md "The sign-in request": Authorization request
 * (hosted/headless): completed action → redirect with authorization code; organization selection, MFA,
 * consent return another view first). The engine moves a request between statuses; each status's page
 * and actions belong to a registered method (./sign-in-method.ts, registered in app/sign-in-methods.ts):
 *
 * | from | event | to |
 * |---|---|---|
 * | (GET /authorize) | valid request, no reusable issuer session | pending |
 * | (GET /authorize) | reusable session | organization_selection, consent or completed (as below) |
 * | (GET /authorize) | usable invitation token (never a session) | pending, bound to the invitation |
 * | pending | identify (stores the email; also from the signed-in statuses: "Use a different account") | pending |
 * | pending | a method proved who the user is (AuthRequestSteps.completeAuthentication), several organizations | organization_selection |
 * | pending, organization_selection | organization decided, MFA due | mfa |
 * | pending, organization_selection, mfa | signed in, consent needed | consent |
 * | pending, organization_selection, mfa | signed in, no consent needed | completed (code issued) |
 * | consent | approve (grant recorded) | completed (code issued) |
 * | consent | deny | denied (access_denied to the client) |
 * | any signed-in status | positive max_age outlasted at code issuance | pending (sign in again) |
 *
 * A pending request shows the page of the first method that holds it (a code it waits for, its
 * invitation, the password of its email), else the identify step. Device requests (started at /device
 * with a user code) follow the same sign-in steps and then wait in `device_approval` instead of consent
 * or a code (the device method).
 *
 * Every step after /authorize must come from the browser that started the request (its binding) and
 * before the request expires (30 minutes); a terminal request answers every step with the "start again"
 * page. Transitions are conditional updates, so a request issues at most one code.
 */
export class AuthorizeFlow {
  readonly #deps: AuthorizeFlowDeps;
  readonly #start: StartAuthorization;
  readonly #steps: AuthRequestSteps;
  /**
   * The request access and completion every method's steps share (loading a request for a browser,
   * completing an authentication, continuing with the engine).
   */
  readonly steps: AuthRequestSteps;
  /** The registered methods: their pages, and the actions the surfaces call. */
  readonly methods: SignInMethods;

  /** `methods`: the sign-in methods, in the order in which they hold a pending request (./sign-in-method.ts). */
  constructor(deps: AuthorizeFlowDeps, methods: readonly SignInMethodRegistration[]) {
    this.#deps = deps;
    const completion = new AuthorizeCompletion(deps);
    const requestLifetimeMs = deps.requestLifetimeMs ?? AUTH_REQUEST_LIFETIME_MS;
    this.#steps = new AuthRequestSteps(deps, completion, () => this.methods);
    this.steps = this.#steps;
    const context = { steps: this.#steps, completion, deps, requestLifetimeMs };
    this.methods = new SignInMethods(methods.map((register) => register(context)));
    this.#start = new StartAuthorization(deps, completion, {
      lifetimeMs: requestLifetimeMs,
      flow: AUTHORIZE_FLOW,
    });
  }

  /**
   * GET /authorize: parse, then sign in silently, ask the user, or answer the client with an error.
   * `sessionless`: a request this browser did not start (an app's SAML entry point), which neither
   * reuses nor starts, replaces or ends its issuer session (AuthRequestRecord.sessionless).
   */
  async start(
    query: unknown,
    browser: BrowserContext & { readonly browserId: string },
    options: { readonly sessionless?: boolean } = {},
  ): Promise<AuthorizeStartOutcome> {
    const documents = this.#deps.clientDocuments;
    const ipAddress = browser.ipAddress ?? null;
    const parsed = await parseAuthorizeRequest(query, {
      findClient: (clientId) => this.#deps.findClient(clientId),
      ...(documents === undefined
        ? {}
        : { admitClient: (clientId) => documents.admit(clientId, { ipAddress }) }),
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
      return this.#start.runBound(request, request.invitationToken, browser);
    }
    const sessionless = options.sessionless === true;
    const session =
      sessionless || browser.sessionToken === undefined
        ? null
        : await this.#deps.browserSessions.resolve(browser.sessionToken);
    const reusable = session !== null && canReuseSession(request, session.authTime, this.#deps.clock.now());
    return this.#start.run(request, browser, reusable ? session : null, sessionless);
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
    if (request.status === 'pending') return { kind: 'step', step: await this.#steps.pendingStep(request) };
    const method = this.methods.forStatus(request.status);
    if (method?.statusStep === undefined) throw authRequestExpiredError();
    // null: showing the page moved the request on (its organization was decided meanwhile): its new step.
    return (await method.statusStep(request, browser)) ?? this.step(request.id, browser);
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
      return this.#retry(await this.#steps.identifyStep(request, typed), emailStepError(typed));
    }
    // Identifying (again) starts the sign-in over: whoever signed in before is forgotten.
    const change = {
      status: 'pending',
      email: email.data,
      userId: null,
      organizationId: null,
      amr: null,
      authTime: null,
      challenge: null,
    } as const;
    const moved = await this.#deps.requests.transition(
      request.id,
      request.status,
      change,
      this.#deps.clock.now(),
    );
    // Home-realm discovery: a method whose realm the address belongs to (an SSO domain) takes over.
    const claimed = moved
      ? await this.methods.claimIdentified({ ...request, ...change }, browser)
      : undefined;
    return claimed ?? { kind: 'next', requestId: request.id };
  }

  /**
   * Deletes requests that expired more than `graceMs` ago (a day by default, so that a late "start
   * again" page still finds nothing odd); returns how many. For a periodic maintenance job.
   */
  deleteExpired(graceMs = DAY_MS): Promise<number> {
    return this.#deps.requests.deleteExpired(this.#deps.clock.now() - graceMs);
  }

  #retry(step: AuthorizeStep, error: StepError): AuthorizeActionOutcome {
    return { kind: 'retry', step, error };
  }
}
