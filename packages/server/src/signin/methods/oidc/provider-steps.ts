import type { LinkingContext, LinkingRefusal } from '../../../federation/oidc/account-linking.js';
import {
  AMR_FEDERATED,
  type OidcSignIn,
  type OidcSignInResult,
} from '../../../federation/oidc/oidc-sign-in.js';
import { OidcRelyingPartyError } from '../../../federation/oidc/rp-errors.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type {
  AuthorizeActionOutcome,
  AuthorizeStep,
  BrowserContext,
  StepError,
} from '../../flow/authorize-outcomes.js';
import { SvcHostedPageError } from '../../flow/page-error.js';
import type { AuthRequestRecord } from '../../flow/repository.js';

declare module '../../flow/authorize-outcomes.js' {
  interface StepErrors {
    /** The provider is unknown, disabled, unreachable, or its connection cannot work. */
    provider_unavailable: true;
    /** The user said no at the provider (`access_denied`). */
    provider_cancelled: true;
    /** The provider's answer was refused (an ID token that does not verify, another error), or the account is inactive. */
    provider_failed: true;
    /** The provider does not vouch for the address, and an account with that address exists. */
    provider_email_unverified: true;
    /** An organization's provider, and the address is outside the organization's verified domains. */
    provider_domain_not_claimed: true;
  }
}

/** What the method uses of the sign-in through a provider (federation/oidc/oidc-sign-in.ts). */
export type ProviderSignIn = Pick<OidcSignIn, 'providers' | 'begin' | 'finish'>;

/** A callback that continues nothing this browser can continue: used, expired, forged, or another browser's. */
export function providerCallbackInvalidError(): SvcHostedPageError {
  return new SvcHostedPageError(
    'This sign-in is no longer valid',
    'The sign-in with the provider expired, was already completed, or was started in another browser. ' +
      'Go back to the application you came from and sign in again.',
    { status: 400, code: 'provider_callback_invalid' },
  );
}

/** Thrown by the callback's admission when the request no longer waits for a sign-in. */
class AlreadySignedIn extends Error {}

/** The step error for a refused provider answer. */
function errorOf(error: OidcRelyingPartyError): StepError {
  if (error.code === 'provider_error' && error.providerError === 'access_denied') return 'provider_cancelled';
  if (
    error.code === 'provider_unavailable' ||
    error.code === 'provider_configuration' ||
    error.code === 'invalid_redirect_uri'
  ) {
    return 'provider_unavailable';
  }
  return 'provider_failed';
}

/** The step error for a refused identity (an inactive account says no more than a failed answer). */
const STEP_ERRORS: Readonly<Record<LinkingRefusal, StepError>> = {
  email_not_verified: 'provider_email_unverified',
  domain_not_claimed: 'provider_domain_not_claimed',
  account_inactive: 'provider_failed',
};

/**
 * Sign-in through an external provider (social or any OpenID provider), as a step of an authorization
 * request: `start` sends the browser to the provider, `callback` continues the request when it comes back
 * and signs the linked (or new) account in like any other method, so organization selection, MFA and
 * consent follow. A refusal at the provider, or an answer that does not verify, shows the request's
 * sign-in page again with the reason; a callback of a request this browser may not continue is refused
 * before anything is redeemed.
 */
export class ProviderSteps {
  readonly #steps: AuthRequestSteps;
  readonly #signIn: ProviderSignIn;

  constructor(steps: AuthRequestSteps, signIn: ProviderSignIn) {
    this.#steps = steps;
    this.#signIn = signIn;
  }

  /** The enabled providers (a button each). */
  async providers(): Promise<AuthorizeStep['request']['providers']> {
    return (await this.#signIn.providers()).map((provider) => ({
      id: provider.connectionId,
      type: provider.providerType,
      displayName: provider.displayName,
      logoDataUrl: provider.logoDataUrl,
    }));
  }

  /** Sends the browser to the provider of `connectionId` for a request that waits for a sign-in. */
  async start(
    requestId: string | undefined,
    browser: BrowserContext,
    connectionId: string,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (request.status !== 'pending') return { kind: 'next', requestId: request.id };
    try {
      const { authorizationUrl } = await this.#signIn.begin(connectionId, {
        authRequestId: request.id,
        loginHint: request.email ?? request.loginHint,
      });
      return { kind: 'redirect', location: authorizationUrl };
    } catch (error) {
      if (!(error instanceof OidcRelyingPartyError)) throw error;
      return this.#retry(request, 'provider_unavailable');
    }
  }

  /** The provider's callback (query, or Apple's form post) for a request of this browser. */
  async callback(params: URLSearchParams, browser: BrowserContext): Promise<AuthorizeActionOutcome> {
    let request: AuthRequestRecord | undefined;
    const admit = async (authRequestId: string | null): Promise<LinkingContext> => {
      if (authRequestId === null) throw providerCallbackInvalidError();
      request = await this.#steps.load(authRequestId, browser).catch((error: unknown) => {
        // Expired, ended, or another browser's: one page that says all three.
        throw error instanceof SvcHostedPageError ? providerCallbackInvalidError() : error;
      });
      // Signed in some other way meanwhile (another tab): nothing is redeemed or linked.
      if (request.status !== 'pending') throw new AlreadySignedIn();
      return {
        clientId: request.clientId,
        ...(browser.ipAddress === undefined ? {} : { ipAddress: browser.ipAddress }),
      };
    };
    let result: OidcSignInResult;
    try {
      result = await this.#signIn.finish(params, admit, browser.ipAddress);
    } catch (error) {
      if (error instanceof AlreadySignedIn && request !== undefined)
        return { kind: 'next', requestId: request.id };
      if (error instanceof OidcRelyingPartyError) throw providerCallbackInvalidError();
      throw error;
    }
    if (request === undefined) throw providerCallbackInvalidError();
    const { outcome } = result;
    if (outcome.kind === 'failed') return this.#retry(request, errorOf(outcome.error));
    const account = outcome.account;
    if (account.kind === 'refused') {
      return this.#retry(request, STEP_ERRORS[account.reason]);
    }
    return this.#steps.completeAuthentication(request, browser, {
      userId: account.user.id,
      amr: [AMR_FEDERATED],
      method: outcome.connection.profile.authenticationMethod,
    });
  }

  async #retry(request: AuthRequestRecord, error: StepError): Promise<AuthorizeActionOutcome> {
    return { kind: 'retry', step: await this.#steps.pendingStep(request), error };
  }
}
