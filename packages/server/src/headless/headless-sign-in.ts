import type { SvcHeadlessActionResult, SvcHeadlessStartBody } from '@svc/contract';
import { SvcError } from '../kernel/errors.js';
import type { AuthorizeFlow } from '../oauth/authorize/authorize-flow.js';
import type {
  AuthorizeActionOutcome,
  AuthorizeStep,
  BrowserContext,
  StartedSession,
  StepError,
} from '../oauth/authorize/authorize-outcomes.js';
import type { AuthRequestRecord } from '../oauth/authorize/repository.js';
import { STEP_ERROR_MESSAGES } from '../oauth/authorize/step-error-messages.js';
import { isConsentToken, consentToken } from './consent-token.js';
import { type ViewContext, viewModelOf } from './view-models.js';

/** A headless browser: like a hosted one, always with an id (the routes set the cookie before). */
export type HeadlessBrowser = BrowserContext & { readonly browserId: string };

/** The body of a step that came back with an error: the action result plus `{ error, message }`. */
export type HeadlessRetryBody = SvcHeadlessActionResult & {
  readonly error: string;
  readonly message: string;
};

/** What a route answers: status, JSON body and the issuer session to put into the cookie (if any). */
export interface HeadlessAnswer {
  readonly status: 200 | 400;
  readonly body: SvcHeadlessActionResult | HeadlessRetryBody;
  readonly session?: StartedSession;
}

/** The wording of each step error (the headless UI may show its own; `error` is the stable code). */
const STEP_MESSAGES: Readonly<Record<StepError | 'consent_token_invalid', string>> = {
  ...STEP_ERROR_MESSAGES,
  consent_token_invalid: 'The consent view is out of date. Show it again and repeat the choice.',
};

/** The /start body's camelCase fields under their /authorize query names (SPEC.md "/start body fields"). */
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
 * The headless sign-in (SPEC.md "Headless API"): the hosted authorization flow driven by JSON. Every
 * outcome of the flow becomes an SvcHeadlessActionResult: `next` → the request's current step as a view
 * model; `redirect` → the client's redirect URL with the code's authorization data; `retry` → 400 with
 * the step error and the same view; `show` (recovery codes after enrollment) → the mfa-enroll view with
 * the codes, plus the redirect when the request completed with them.
 *
 * Requests, their browser binding, expiry and single-use transitions are the flow's; a request started
 * here is an ordinary authorization request (the hosted pages can continue it in the same browser).
 */
export class HeadlessSignIn {
  readonly #flow: AuthorizeFlow;
  readonly #context: ViewContext;

  constructor(deps: { readonly flow: AuthorizeFlow; readonly context: ViewContext }) {
    this.#flow = deps.flow;
    this.#context = deps.context;
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
    const outcome = await this.#flow.start(query, {
      browserId: browser.browserId,
      ipAddress: browser.ipAddress,
    });
    switch (outcome.kind) {
      case 'error_page':
        throw new HeadlessStartError(outcome.error, outcome.description);
      case 'redirect':
        return { status: 200, body: redirectResult(outcome.location, body.redirectUri) };
      case 'interact':
        return this.current(outcome.requestId, browser);
    }
  }

  /** GET /requests/{requestId}: the request's current view (or its redirect, when it resolved itself). */
  async current(requestId: string, browser: HeadlessBrowser): Promise<HeadlessAnswer> {
    const record = await this.#flow.steps.load(requestId, browser);
    const outcome = await this.#flow.step(requestId, browser);
    if (outcome.kind === 'redirect') {
      return { status: 200, body: redirectResult(outcome.location, record.redirectUri) };
    }
    return { status: 200, body: await this.#view(outcome.step, browser) };
  }

  /** POST /identify. */
  identify(requestId: string, browser: HeadlessBrowser, email: string): Promise<HeadlessAnswer> {
    return this.#act(requestId, browser, () => this.#flow.identify(requestId, browser, email));
  }

  /** POST /password/login. */
  password(requestId: string, browser: HeadlessBrowser, password: string): Promise<HeadlessAnswer> {
    return this.#act(requestId, browser, () => this.#flow.password(requestId, browser, password));
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
    return this.#act(requestId, browser, async () => {
      let token = pendingToken;
      if (token === undefined) {
        const current = await this.#flow.step(requestId, browser);
        if (current.kind !== 'step' || current.step.kind !== 'select_organization') {
          return current.kind === 'redirect' ? current : { kind: 'next', requestId };
        }
        token = current.step.pendingAuthToken;
      }
      return this.#flow.selectOrganization(requestId, browser, token, organizationId);
    });
  }

  /** POST /mfa/verify. */
  verifyMfa(requestId: string, browser: HeadlessBrowser, code: string): Promise<HeadlessAnswer> {
    return this.#act(requestId, browser, () => this.#flow.mfa.verify(requestId, browser, code));
  }

  /** POST /mfa/totp/enroll/verify: the recovery codes come back in the mfa-enroll view model. */
  verifyEnrollment(requestId: string, browser: HeadlessBrowser, code: string): Promise<HeadlessAnswer> {
    return this.#act(requestId, browser, () => this.#flow.mfa.enroll(requestId, browser, code));
  }

  /** POST /consent/approve and /consent/deny: only with the consent view's token of this browser. */
  consent(
    requestId: string,
    browser: HeadlessBrowser,
    token: string,
    decision: 'approve' | 'deny',
  ): Promise<HeadlessAnswer> {
    return this.#act(requestId, browser, async (record) => {
      if (record.status !== 'consent') return { kind: 'next', requestId };
      if (!isConsentToken(token, browser.browserId, record)) {
        const step = await this.#flow.step(requestId, browser);
        if (step.kind === 'step') return { kind: 'retry', step: step.step, error: 'consent_token_invalid' };
        return step;
      }
      return decision === 'approve'
        ? this.#flow.approveConsent(requestId, browser)
        : this.#flow.denyConsent(requestId, browser);
    });
  }

  /** Runs one action on a request of this browser and maps its outcome. */
  async #act(
    requestId: string,
    browser: HeadlessBrowser,
    action: (record: AuthRequestRecord) => Promise<AuthorizeActionOutcome | ConsentRetry>,
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
        return { ...next, ...started };
      }
      case 'retry': {
        const view = await this.#view(outcome.step, browser);
        return {
          status: 400,
          body: { ...view, error: outcome.error, message: STEP_MESSAGES[outcome.error] },
        };
      }
      case 'show': {
        const view = await this.#view(outcome.step, browser);
        const continueTo = outcome.step.kind === 'recovery_codes' ? outcome.step.continueTo : null;
        const body =
          continueTo === null
            ? view
            : { ...redirectResult(continueTo, record.redirectUri), viewModel: view.viewModel };
        return { status: 200, body, ...started };
      }
    }
  }

  /** A step as a view result; the consent view carries its token for the request's current identity. */
  async #view(step: AuthorizeStep, browser: HeadlessBrowser): Promise<SvcHeadlessActionResult> {
    const extra =
      step.kind === 'consent'
        ? {
            consentToken: consentToken(
              browser.browserId,
              await this.#flow.steps.load(step.request.requestId, browser),
            ),
          }
        : {};
    return { type: 'view', redirectUrl: null, viewModel: viewModelOf(step, this.#context, extra) };
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
