import type {
  HeadlessView,
  SvcHeadlessActionResult,
  SvcHeadlessStartBody,
  SvcHeadlessViewModel,
} from '@svc/contract';
import type { SignInDeps } from '../signin/flow/sign-in-deps.js';
import { SvcError } from '../kernel/errors.js';
import type { AuthorizeFlow } from '../signin/flow/authorize-flow.js';
import type {
  AuthorizeActionOutcome,
  AuthorizeStep,
  BrowserContext,
  StepError,
  StepRequest,
} from '../signin/flow/authorize-outcomes.js';
import type { AuthRequestRecord } from '../signin/flow/repository.js';
import { STEP_ERROR_MESSAGES } from '../signin/flow/step-error-messages.js';
import { isConsentToken, consentToken } from './consent-token.js';
import type { HeadlessAnswer } from './headless-answer.js';
import { retryAnswer, withStoredResend } from './retry-answer.js';
import { enabledCredentialTypes, type ViewContext, viewModel, viewModelOf } from './view-models.js';
import { CONSENT } from '../signin/methods/consent/consent-actions.js';
import { EMAIL_OTP } from '../signin/methods/email-otp/method.js';
import { MFA } from '../signin/methods/mfa/mfa-steps.js';
import { ORGANIZATION } from '../signin/methods/organization/organization-method.js';
import { PASSWORD } from '../signin/methods/password/password-method.js';
import { PHONE_OTP } from '../signin/methods/phone-otp/method.js';
import { SIGNUP } from '../signin/methods/signup/method.js';

/** A headless browser: like a hosted one, always with an id (the routes set the cookie before). */
export type HeadlessBrowser = BrowserContext & { readonly browserId: string };

/**
 * What the headless sign-in drives: the sign-in's step capabilities (absent ones answer 404 from their
 * routes) and what every view model says about the deployment.
 */
export type HeadlessSignInDeps = Pick<SignInDeps, 'flow' | 'logout' | 'account'> & {
  readonly context: ViewContext;
};

export type { HeadlessAnswer, HeadlessRetryBody } from './headless-answer.js';

/** The wording of each step error (the headless UI may show its own; `error` is the stable code). */
const STEP_MESSAGES: Readonly<Record<StepError | 'consent_token_invalid', string>> = {
  ...STEP_ERROR_MESSAGES,
  consent_token_invalid: 'The consent view is out of date. Show it again and repeat the choice.',
};

/** The /start body's camelCase fields under their /authorize query names (docs/reference/sign-in.md "Headless API"). */
const START_QUERY_NAMES = {
  responseType: 'response_type',
  clientId: 'client_id',
  redirectUri: 'redirect_uri',
  state: 'state',
  scope: 'scope',
  codeChallenge: 'code_challenge',
  codeChallengeMethod: 'code_challenge_method',
  resource: 'resource',
  loginHint: 'login_hint',
  view: 'view',
  prompt: 'prompt',
  nonce: 'nonce',
  invitationToken: 'invitation_token',
} as const satisfies Partial<Record<keyof SvcHeadlessStartBody, string>>;

/** A /start request that /authorize would answer with its error page: 400 with the OAuth error. */
export class HeadlessStartError extends SvcError {
  constructor(code: string, description: string) {
    super(code, description, { status: 400, expose: true });
  }
}

/**
 * The headless sign-in (docs/reference/sign-in.md "Headless API"): the hosted authorization flow driven by JSON. Every
 * outcome of the flow becomes an SvcHeadlessActionResult: `next` → the request's current step as a view
 * model; `redirect` → the client's redirect URL with the code's authorization data; `retry` → 400 with
 * the step error and the same view (429, see retry-answer.ts); `show` (recovery codes after enrollment) →
 * the mfa-enroll view with the codes, plus the redirect when the request completed with them.
 *
 * Requests, their browser binding, expiry and single-use transitions are the flow's; a request started
 * here is an ordinary authorization request (the hosted pages can continue it in the same browser).
 */
export class HeadlessSignIn {
  readonly #deps: HeadlessSignInDeps;
  readonly #flow: AuthorizeFlow;
  readonly #context: ViewContext;

  constructor(deps: HeadlessSignInDeps) {
    this.#deps = deps;
    this.#flow = deps.flow;
    this.#context = deps.context;
  }

  /** The step capabilities (the adapters of ./headless-actions.ts call them through `run`). */
  get deps(): HeadlessSignInDeps {
    return this.#deps;
  }

  /** The request as this browser may see it (binding, expiry), and what every view shows about it. */
  async request(
    requestId: string,
    browser: HeadlessBrowser,
  ): Promise<{ readonly record: AuthRequestRecord; readonly request: StepRequest }> {
    const record = await this.#flow.steps.load(requestId, browser);
    return { record, request: await this.#flow.steps.stepRequest(record) };
  }

  /** A view that is not a step of the flow, as an action result (`status` 400 with an error). */
  viewAnswer(
    view: HeadlessView,
    request: StepRequest,
    fields: Readonly<Record<string, unknown>> = {},
    error?: { readonly code: string; readonly message: string; readonly status?: 400 | 429 },
  ): HeadlessAnswer {
    const result: SvcHeadlessActionResult = {
      type: 'view',
      redirectUrl: null,
      viewModel: viewModel(view, request, this.#context, fields),
    };
    if (error === undefined) return { status: 200, body: result };
    return { status: error.status ?? 400, body: { ...result, error: error.code, message: error.message } };
  }

  /**
   * POST /start: /authorize for a JSON client. Never reuses the browser's issuer session silently (the
   * flow sees no session cookie), so a positive maxAge is enforced by the sign-in that follows.
   */
  async start(body: SvcHeadlessStartBody, browser: HeadlessBrowser): Promise<HeadlessAnswer> {
    const query: Record<string, string> = {};
    for (const [field, name] of Object.entries(START_QUERY_NAMES)) {
      const value = body[field as keyof typeof START_QUERY_NAMES];
      if (value !== undefined) query[name] = value;
    }
    if (body.maxAge !== undefined) query.max_age = String(body.maxAge);
    if (body.uiContext !== undefined) query.ui_context = JSON.stringify(body.uiContext);
    const { browserId, ipAddress, userAgent } = browser;
    const outcome = await this.#flow.start(query, { browserId, ipAddress, userAgent });
    switch (outcome.kind) {
      case 'error_page':
        throw new HeadlessStartError(outcome.error, outcome.description);
      case 'redirect':
        return { status: 200, body: redirectResult(outcome.location, body.redirectUri) };
      case 'interact':
        return this.current(outcome.requestId, browser);
    }
  }

  /**
   * GET /requests/{requestId}: the request's current view (or its redirect, when it resolved itself). A
   * request that waits for its first sign-in shows the first screen its /start `view` asked for.
   */
  async current(requestId: string, browser: HeadlessBrowser): Promise<HeadlessAnswer> {
    const record = await this.#flow.steps.load(requestId, browser);
    const entry = await this.#entryView(record, browser);
    if (entry !== undefined)
      return { status: 200, body: { type: 'view', redirectUrl: null, viewModel: entry } };
    const outcome = await this.#flow.step(requestId, browser);
    if (outcome.kind === 'redirect') {
      return { status: 200, body: redirectResult(outcome.location, record.redirectUri) };
    }
    return { status: 200, body: await this.view(outcome.step, browser) };
  }

  /** The view of a request's /start `view` while it waits for its first sign-in step (nothing typed yet). */
  async #entryView(
    record: AuthRequestRecord,
    browser: HeadlessBrowser,
  ): Promise<SvcHeadlessViewModel | undefined> {
    if (record.status !== 'pending' || record.challenge !== null || record.email !== null) return undefined;
    const view = record.view as HeadlessView | null;
    const emailOtp = this.#flow.methods.get(EMAIL_OTP);
    const phoneOtp = this.#flow.methods.get(PHONE_OTP);
    const signup = this.#flow.methods.get(SIGNUP);
    switch (view) {
      case 'login':
        return viewModelOf(await this.#flow.steps.identifyStep(record, record.loginHint), this.#context, {
          view,
        });
      case 'email-otp':
        return emailOtp === undefined
          ? undefined
          : viewModelOf(await emailOtp.emailStep(record.id, browser), this.#context, { view });
      case 'phone-otp':
        return phoneOtp === undefined
          ? undefined
          : viewModelOf(await phoneOtp.loginStep(record.id, browser), this.#context);
      case 'phone-otp-signup':
        return phoneOtp === undefined
          ? undefined
          : viewModelOf(await phoneOtp.signupStep(record.id, browser), this.#context);
      case 'signup':
        return signup === undefined
          ? undefined
          : viewModelOf(await signup.signupStep(record.id, browser), this.#context);
      case 'forgot-password':
        return viewModel('forgot-password', await this.#flow.steps.stepRequest(record), this.#context, {
          email: record.loginHint,
        });
      default:
        return undefined;
    }
  }

  /** POST /identify. */
  identify(requestId: string, browser: HeadlessBrowser, email: string): Promise<HeadlessAnswer> {
    return this.run(requestId, browser, () => this.#flow.identify(requestId, browser, email));
  }

  /** POST /password/login. */
  password(requestId: string, browser: HeadlessBrowser, password: string): Promise<HeadlessAnswer> {
    return this.run(requestId, browser, () =>
      this.#flow.methods.require(PASSWORD).password(requestId, browser, password),
    );
  }

  /**
   * POST /organization/select: with the view model's pending token, or (left out) a fresh one of this
   * request minted here the way the hosted page mints one for its form.
   */
  selectOrganization(
    requestId: string,
    browser: HeadlessBrowser,
    organizationId: string,
    pendingToken: string | undefined,
  ): Promise<HeadlessAnswer> {
    return this.run(requestId, browser, async () => {
      let token = pendingToken;
      if (token === undefined) {
        const current = await this.#flow.step(requestId, browser);
        if (current.kind !== 'step' || current.step.kind !== 'select_organization') {
          return current.kind === 'redirect' ? current : { kind: 'next', requestId };
        }
        token = current.step.pendingAuthToken;
      }
      return this.#flow.methods.require(ORGANIZATION).select(requestId, browser, token, organizationId);
    });
  }

  /** POST /mfa/verify. */
  verifyMfa(requestId: string, browser: HeadlessBrowser, code: string): Promise<HeadlessAnswer> {
    return this.run(requestId, browser, () =>
      this.#flow.methods.require(MFA).verify(requestId, browser, code),
    );
  }

  /** POST /mfa/totp/enroll/verify: the recovery codes come back in the mfa-enroll view model. */
  verifyEnrollment(requestId: string, browser: HeadlessBrowser, code: string): Promise<HeadlessAnswer> {
    return this.run(requestId, browser, () =>
      this.#flow.methods.require(MFA).enroll(requestId, browser, code),
    );
  }

  /** POST /consent/approve and /consent/deny: only with the consent view's token of this browser. */
  consent(
    requestId: string,
    browser: HeadlessBrowser,
    token: string,
    decision: 'approve' | 'deny',
  ): Promise<HeadlessAnswer> {
    return this.run(requestId, browser, async (record) => {
      if (record.status !== 'consent') return { kind: 'next', requestId };
      if (!isConsentToken(token, browser.browserId, record)) {
        const step = await this.#flow.step(requestId, browser);
        if (step.kind === 'step') return { kind: 'retry', step: step.step, error: 'consent_token_invalid' };
        return step;
      }
      const consent = this.#flow.methods.require(CONSENT);
      return decision === 'approve' ? consent.approve(requestId, browser) : consent.deny(requestId, browser);
    });
  }

  /**
   * Runs one action on a request of this browser and maps its outcome (see the class comment). `as`
   * names the view of a retry or of the next step when it is not the step's own (the magic-link form, an
   * invitation's code).
   */
  async run(
    requestId: string,
    browser: HeadlessBrowser,
    action: (record: AuthRequestRecord) => Promise<AuthorizeActionOutcome | ConsentRetry>,
    as: { readonly retry?: HeadlessView; readonly next?: HeadlessView } = {},
  ): Promise<HeadlessAnswer> {
    const record = await this.#flow.steps.load(requestId, browser);
    const outcome = await action(record);
    const started = 'session' in outcome && outcome.session !== undefined ? { session: outcome.session } : {};
    switch (outcome.kind) {
      case 'redirect':
        return { status: 200, body: redirectResult(outcome.location, record.redirectUri), ...started };
      case 'next': {
        // The session cookie of the browser changes with this answer: the next step must not see the old one.
        const next = await this.current(requestId, {
          ...browser,
          sessionToken: outcome.session?.token ?? browser.sessionToken,
        });
        if (as.next === undefined || next.body.viewModel === null) return { ...next, ...started };
        const viewModel = { ...next.body.viewModel, view: as.next };
        return { ...next, body: { ...next.body, viewModel }, ...started };
      }
      case 'retry': {
        const view = await this.view(withStoredResend(outcome.step, record), browser, as.retry);
        const refused = 'refused' in outcome ? outcome.refused : undefined;
        return retryAnswer(view, outcome.error, STEP_MESSAGES[outcome.error], refused);
      }
      case 'show': {
        const view = await this.view(outcome.step, browser);
        const continueTo = outcome.step.kind === 'recovery_codes' ? outcome.step.continueTo : null;
        const body =
          continueTo === null
            ? view
            : { ...redirectResult(continueTo, record.redirectUri), viewModel: view.viewModel };
        return { status: 200, body, ...started };
      }
    }
  }

  /**
   * A step as a view result (as the view `as` when given); the consent view carries its token for the
   * request's current identity.
   */
  async view(
    step: AuthorizeStep,
    browser: HeadlessBrowser,
    as?: HeadlessView,
  ): Promise<SvcHeadlessActionResult> {
    const extra =
      step.kind === 'consent'
        ? {
            consentToken: consentToken(
              browser.browserId,
              await this.#flow.steps.load(step.request.requestId, browser),
            ),
          }
        : {};
    const view = as === undefined ? {} : { view: as };
    return {
      type: 'view',
      redirectUrl: null,
      viewModel: viewModelOf(step, this.#context, { ...extra, ...view }),
    };
  }
}

/** The consent action's own inline error beside the flow's step errors. */
type ConsentRetry = {
  readonly kind: 'retry';
  readonly step: AuthorizeStep;
  readonly error: 'consent_token_invalid';
};

/**
 * A redirect to the client: with a code, the authorization data the client exchanges at /token
 * (`redirectUri` is the request's, exactly as registered; the client adds its own codeVerifier).
 */
export function redirectResult(location: string, redirectUri: string): SvcHeadlessActionResult {
  const params = new URL(location).searchParams;
  const code = params.get('code');
  return {
    type: 'redirect',
    redirectUrl: location,
    viewModel: null,
    authorization: code === null ? null : { code, redirectUri, state: params.get('state') },
  };
}

/** The headless sign-in over the hosted flow's capabilities, offering the credential types they wire. */
export function headlessSignInOver(deps: Omit<HeadlessSignInDeps, 'context'>): HeadlessSignIn {
  const context = {
    enabledCredentialTypes: enabledCredentialTypes({
      emailSignIn: deps.flow.methods.has(EMAIL_OTP),
      phoneSignIn: deps.flow.methods.has(PHONE_OTP),
    }),
  };
  return new HeadlessSignIn({ ...deps, context });
}
