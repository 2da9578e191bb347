import type { SvcOrganizationOption } from '@svc/contract';
import { SvcPublicAuthError } from '../../../kernel/errors.js';
import type { SignInOutcome } from '../../sign-in-engine.js';
import { AUTHORIZE_FLOW, type AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type {
  AuthorizeActionOutcome,
  AuthorizeStepOutcome,
  BrowserContext,
} from '../../flow/authorize-outcomes.js';
import type { AuthorizeFlowDeps } from '../../flow/deps.js';
import type { AuthRequestRecord } from '../../flow/repository.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    select_organization: {
      readonly kind: 'select_organization';
      readonly request: StepRequest;
      /** The engine's single-use token for this choice; goes into the form, never into a URL. */
      readonly pendingAuthToken: string;
      readonly organizations: readonly SvcOrganizationOption[];
    };
  }
  interface StepErrors {
    organization_required: true;
  }
}

/** Record ids Svc issues are printable ASCII; anything else is no organization of the user. */
const RECORD_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * Organization selection (status `organization_selection`): a signed-in user who belongs to several
 * organizations chooses one, with the engine's single-use token.
 */
export class OrganizationSteps {
  readonly #deps: AuthorizeFlowDeps;
  readonly #steps: AuthRequestSteps;

  constructor(deps: AuthorizeFlowDeps, steps: AuthRequestSteps) {
    this.#deps = deps;
    this.#steps = steps;
  }

  /**
   * The choice, made with a fresh single-use token each time the page is shown (the token is a secret:
   * it lives in the form, never in a URL or the database); null when the engine decided meanwhile and
   * the request moved on.
   */
  async step(request: AuthRequestRecord, browser: BrowserContext): Promise<AuthorizeStepOutcome | null> {
    const identity = this.#steps.identityOf(request);
    const outcome = await this.#steps.signIn(request, identity);
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
      identity,
      undefined,
      browser,
    );
    return moved.kind === 'redirect' ? moved : null;
  }

  /** POST /login/select-organization: continues the engine's organization_selection with its token. */
  async select(
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
    const retry = async (): Promise<AuthorizeActionOutcome> => ({
      kind: 'retry',
      step: {
        kind: 'select_organization',
        request: await this.#steps.stepRequest(request),
        pendingAuthToken,
        organizations: pending.organizations,
      },
      error: 'organization_required',
    });
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
}

export const ORGANIZATION: SignInMethodKey<OrganizationSteps> = signInMethodKey('organization');

export function organizationMethod(): SignInMethodRegistration {
  return ({ deps, steps }) => {
    const actions = new OrganizationSteps(deps, steps);
    return {
      key: ORGANIZATION,
      actions,
      statuses: ['organization_selection'],
      statusStep: (request, browser) => actions.step(request, browser),
    };
  };
}
