import type { SvcScopeDetail } from '@svc/contract';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type { AuthorizeCompletion } from '../../flow/authorize-completion.js';
import {
  selfRegisteredClient,
  toActionOutcome,
  type AuthorizeActionOutcome,
  type AuthorizeStep,
  type BrowserContext,
} from '../../flow/authorize-outcomes.js';
import type { AuthorizeFlowDeps } from '../../flow/deps.js';
import { authRequestExpiredError } from '../../flow/errors.js';
import { errorRedirect } from '../../../oauth/authorize/redirect.js';
import type { AuthRequestRecord } from '../../flow/repository.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodContext, SignInMethodRegistration } from '../../flow/method-context.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    consent: {
      readonly kind: 'consent';
      readonly request: StepRequest;
      readonly scopes: readonly string[];
      /** The scopes as the user reads them: display names and descriptions. */
      readonly scopeDetails: readonly SvcScopeDetail[];
      readonly userEmail: string | null;
      readonly organizationName: string | null;
      /** Null for a client an operator created. */
      readonly selfRegistered: SelfRegisteredClient | null;
    };
  }
}

/**
 * The consent step of a request (docs/reference/sign-in.md "Application access and consent": a non-first-party client without a covering grant reaches
 * the consent view; approve continues, deny redirects to the client with access_denied). A post for a
 * request that is not at this step only shows its current step; so does one for a device request, which
 * is approved or denied at /device/approve and /device/deny and has no client to send a code or an error
 * to.
 */
export class ConsentActions {
  readonly #deps: AuthorizeFlowDeps;
  readonly #completion: AuthorizeCompletion;
  readonly #steps: AuthRequestSteps;

  constructor({ deps, completion, steps }: SignInMethodContext) {
    this.#deps = deps;
    this.#completion = completion;
    this.#steps = steps;
  }

  /** The consent step: the scopes to grant (with their display names), the account and its organization. */
  async step(request: AuthRequestRecord): Promise<AuthorizeStep> {
    const client = await this.#completion.activeClient(request.clientId);
    const { userId } = this.#steps.identityOf(request);
    const user = await this.#deps.users.findById(userId);
    const organizations =
      request.organizationId === null ? [] : await this.#deps.organizations.options(userId);
    const scopes = this.#completion.grantedScopes(request, client);
    return {
      kind: 'consent',
      request: await this.#steps.stepRequest(request, client),
      scopes,
      scopeDetails: await this.#deps.scopeDisplay.describe(scopes),
      // An account signed up by phone has no address: its name says who is signed in.
      userEmail: user?.email ?? user?.displayName ?? null,
      organizationName: organizations.find((org) => org.id === request.organizationId)?.name ?? null,
      selfRegistered: selfRegisteredClient(client, new URL(request.redirectUri).host),
    };
  }

  /** POST /consent/approve: records the grant (merged into any earlier one) and issues the code. */
  async approve(requestId: string | undefined, browser: BrowserContext): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (!atConsent(request)) return { kind: 'next', requestId: request.id };
    const client = await this.#completion.activeClient(request.clientId);
    const identity = this.#steps.identityOf(request);
    await this.#deps.consents.record(
      identity.userId,
      client.clientId,
      this.#completion.grantedScopes(request, client),
    );
    const result = await this.#completion.issueCode(
      request,
      client,
      'consent',
      { ...identity, organizationId: request.organizationId },
      browser,
    );
    return toActionOutcome(result, request.id);
  }

  /** POST /consent/deny: ends the request as denied and sends access_denied (docs/reference/sign-in.md "Application access and consent") to the client. */
  async deny(requestId: string | undefined, browser: BrowserContext): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (!atConsent(request)) return { kind: 'next', requestId: request.id };
    await this.#completion.activeClient(request.clientId);
    const now = this.#deps.clock.now();
    if (!(await this.#deps.requests.transition(request.id, 'consent', { status: 'denied' }, now))) {
      throw authRequestExpiredError();
    }
    return {
      kind: 'redirect',
      location: errorRedirect(request, 'access_denied', 'The user denied the request.', this.#deps.issuer),
    };
  }
}

/** A request waiting for consent to a client redirect (never a device request). */
function atConsent(request: AuthRequestRecord): boolean {
  return request.status === 'consent' && request.sealedDeviceUserCode === null;
}

export const CONSENT: SignInMethodKey<ConsentActions> = signInMethodKey('consent');

export function consentMethod(): SignInMethodRegistration {
  return (context) => {
    const actions = new ConsentActions(context);
    return {
      key: CONSENT,
      actions,
      statuses: ['consent'],
      statusStep: async (request) => ({ kind: 'step', step: await actions.step(request) }),
    };
  };
}
