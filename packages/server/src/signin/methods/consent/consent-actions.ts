import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type { AuthorizeCompletion } from '../../flow/authorize-completion.js';
import { toActionOutcome, type AuthorizeActionOutcome } from '../../flow/authorize-outcomes.js';
import type { AuthorizeFlowDeps } from '../../flow/deps.js';
import { authRequestExpiredError } from '../../flow/errors.js';
import { errorRedirect } from '../../../oauth/authorize/redirect.js';
import type { AuthRequestRecord } from '../../flow/repository.js';

/**
 * The consent step of a request (SPEC.md: "a non-first-party client without a covering grant reaches
 * the consent view; approve continues, deny redirects to the client with access_denied"). A post for a
 * request that is not at this step only shows its current step; so does one for a device request, which
 * is approved or denied at /device/approve and /device/deny and has no client to send a code or an error
 * to.
 */
export class ConsentActions {
  readonly #deps: AuthorizeFlowDeps;
  readonly #completion: AuthorizeCompletion;
  readonly #steps: AuthRequestSteps;

  constructor(deps: AuthorizeFlowDeps, completion: AuthorizeCompletion, steps: AuthRequestSteps) {
    this.#deps = deps;
    this.#completion = completion;
    this.#steps = steps;
  }

  /** Records the grant (merged into the user's earlier grant to the client) and issues the code. */
  async approve(request: AuthRequestRecord): Promise<AuthorizeActionOutcome> {
    if (!atConsent(request)) return { kind: 'next', requestId: request.id };
    const client = await this.#completion.activeClient(request.clientId);
    const identity = this.#steps.identityOf(request);
    await this.#deps.consents.record(
      identity.userId,
      client.clientId,
      this.#completion.grantedScopes(request, client),
    );
    const result = await this.#completion.issueCode(request, client, 'consent', {
      ...identity,
      organizationId: request.organizationId,
    });
    return toActionOutcome(result, request.id);
  }

  /** Ends the request as denied and sends access_denied (with the state) to the client. */
  async deny(request: AuthRequestRecord): Promise<AuthorizeActionOutcome> {
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
