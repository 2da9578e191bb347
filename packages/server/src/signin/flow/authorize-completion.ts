import type { ClientRecord } from '../../directory/repository.js';
import { grantScopes } from '../../oauth/scopes.js';
import type { AuthorizeFlowDeps } from './deps.js';
import { authRequestExpiredError, clientUnavailableError } from './errors.js';
import { codeRedirect, errorRedirect } from '../../oauth/authorize/redirect.js';
import { ACCESS_DENIED_MESSAGE } from '../../applications/errors.js';
import type { BrowserContext } from './authorize-outcomes.js';
import type { AuthRequestRecord, AuthRequestStatus } from './repository.js';
import { freshEnoughToIssue } from './session-reuse.js';

/** Who the sign-in engine completed, as the request records it. */
export interface AuthorizedIdentity {
  readonly userId: string;
  /** Null for a user-scoped sign-in. */
  readonly organizationId: string | null;
  readonly amr: readonly string[];
  /** Epoch milliseconds of the authentication. */
  readonly authTime: number;
}

/** Only the identity fields (an engine identity carries more, which must not reach storage). */
function pickIdentity(identity: AuthorizedIdentity): AuthorizedIdentity {
  return {
    userId: identity.userId,
    organizationId: identity.organizationId,
    amr: [...identity.amr],
    authTime: identity.authTime,
  };
}

/** Where a request goes once its sign-in is complete: to the client, or to its next step (consent). */
export type CompletionResult =
  { readonly kind: 'redirect'; readonly location: string } | { readonly kind: 'next' };

/** The part of a request the consent decision reads. */
type ConsentInput = Pick<AuthRequestRecord, 'prompt' | 'grantedScopes'>;

/**
 * The end of an authorization request, after the sign-in engine completed: consent when the client
 * needs it, then the authorization code and the redirect back to the client, exactly once.
 */
export class AuthorizeCompletion {
  readonly #deps: AuthorizeFlowDeps;

  constructor(deps: AuthorizeFlowDeps) {
    this.#deps = deps;
  }

  /** The request's client while it is still active; otherwise nothing may be sent to it. */
  async activeClient(clientId: string): Promise<ClientRecord> {
    const client = await this.#deps.findClient(clientId);
    if (client?.active !== true) throw clientUnavailableError();
    return client;
  }

  /**
   * The scopes to grant now: the request's grant, intersected again with the client's allow-list in case
   * an operator narrowed it while the user was signing in.
   */
  grantedScopes(request: Pick<AuthRequestRecord, 'grantedScopes'>, client: ClientRecord): string[] {
    return grantScopes(request.grantedScopes, client.allowedScopes);
  }

  /** Whether the client's application access refuses this sign-in (audited as it does). */
  async deniesAccess(
    client: ClientRecord,
    identity: Pick<AuthorizedIdentity, 'userId' | 'organizationId'>,
  ): Promise<boolean> {
    const who = { userId: identity.userId, organizationId: identity.organizationId };
    return (await this.#deps.access.denial(client, who, { flow: 'authorize' })) !== null;
  }

  /**
   * docs/reference/sign-in.md "Application access and consent": a non-first-party client without a covering grant reaches the consent view, and
   * `prompt=consent` "forces consent for a non-first-party client". First-party clients never ask.
   */
  async needsConsent(request: ConsentInput, client: ClientRecord, userId: string): Promise<boolean> {
    if (client.isFirstParty) return false;
    if (request.prompt.includes('consent')) return true;
    const covering = await this.#deps.consents.findCovering(
      userId,
      client.clientId,
      this.grantedScopes(request, client),
    );
    return covering === null;
  }

  /**
   * After the engine completed the sign-in of a request that is in status `from`, in `browser`. A device
   * request (./device-steps.ts) waits for its approval page instead: it has no client redirect to go to,
   * and its approval is its consent.
   */
  async afterSignIn(
    request: AuthRequestRecord,
    from: AuthRequestStatus,
    identity: AuthorizedIdentity,
    browser: BrowserContext | undefined,
  ): Promise<CompletionResult> {
    const client = await this.activeClient(request.clientId);
    if (request.sealedDeviceUserCode !== null) {
      // Its approval checks application access (DeviceAuthorizations.approve).
      await this.#move(request.id, from, { status: 'device_approval', ...pickIdentity(identity) });
      return { kind: 'next' };
    }
    if (await this.deniesAccess(client, identity)) {
      // Ended like a denied consent: the client hears access_denied (the detail is in the audit event).
      await this.#move(request.id, from, { status: 'denied' });
      return {
        kind: 'redirect',
        location: errorRedirect(request, 'access_denied', ACCESS_DENIED_MESSAGE, this.#deps.issuer),
      };
    }
    if (await this.needsConsent(request, client, identity.userId)) {
      await this.#move(request.id, from, { status: 'consent', ...pickIdentity(identity) });
      return { kind: 'next' };
    }
    return this.issueCode(request, client, from, identity, browser);
  }

  /**
   * Completes the request (a conditional update, so a request yields one code however often it is
   * posted) and issues the code. A positive max_age is checked once more, since organization selection
   * or consent may have outlasted it: a stale authentication sends the user back to the password step.
   * The code carries the browser's user agent and address to the token session it starts: the client
   * redeems it from elsewhere (its backend), and the session is the user's.
   */
  async issueCode(
    request: AuthRequestRecord,
    client: ClientRecord,
    from: AuthRequestStatus,
    identity: AuthorizedIdentity,
    browser: BrowserContext | undefined,
  ): Promise<CompletionResult> {
    // A device request has no redirect URI and no PKCE challenge: no path may ever mint a code for it.
    if (request.sealedDeviceUserCode !== null) {
      throw new Error('A device authorization request never issues an authorization code.');
    }
    const now = this.#deps.clock.now();
    if (!freshEnoughToIssue(request.maxAge, identity.authTime, now)) {
      await this.#move(request.id, from, {
        status: 'pending',
        userId: null,
        organizationId: null,
        amr: null,
        authTime: null,
        challenge: null,
      });
      return { kind: 'next' };
    }
    await this.#move(request.id, from, { status: 'completed', ...pickIdentity(identity) });
    const scopes = this.grantedScopes(request, client);
    const { code } = await this.#deps.codes.issue({
      clientId: client.clientId,
      userId: identity.userId,
      organizationId: identity.organizationId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes,
      resource: request.resource,
      nonce: request.nonce,
      authTime: identity.authTime,
      amr: identity.amr,
      userAgent: browser?.userAgent ?? null,
      ipAddress: browser?.ipAddress ?? null,
    });
    return { kind: 'redirect', location: codeRedirect(request, code, scopes, this.#deps.issuer) };
  }

  async #move(
    id: string,
    from: AuthRequestStatus,
    change: Parameters<AuthorizeFlowDeps['requests']['transition']>[2],
  ): Promise<void> {
    // Losing the race to another tab's post (or to the expiry) ends this attempt.
    if (!(await this.#deps.requests.transition(id, from, change, this.#deps.clock.now()))) {
      throw authRequestExpiredError();
    }
  }
}
