import { emailSchema } from '@svc/contract';
import { ACCESS_DENIED_MESSAGE } from '../../applications/errors.js';
import { sha256Hex } from '../../kernel/crypto.js';
import type { ResolvedBrowserSession } from '../browser-sessions.js';
import type { OAuthErrorCode } from '../../oauth/errors.js';
import type { AuthorizeCompletion, AuthorizedIdentity } from './authorize-completion.js';
import type { AuthorizeStartOutcome, BrowserContext } from './authorize-outcomes.js';
import type { AuthorizeRequest } from '../../oauth/authorize/authorize-request.js';
import type { AuthorizeFlowDeps } from './deps.js';
import { invitationOperation, invitationUnusableError } from './errors.js';
import { errorRedirect } from '../../oauth/authorize/redirect.js';
import type { AuthRequestChange, AuthRequestRecord } from './repository.js';

export interface StartOptions {
  /** How long the stored request lives. */
  readonly lifetimeMs: number;
  /** The engine flow name of hosted sign-ins. */
  readonly flow: string;
}

/**
 * The start of a valid /authorize request: store it, bound to the browser, and either ask the user to
 * sign in or reuse the browser's issuer session.
 *
 * Reuse (the caller decided that the session is reusable under prompt and max_age): the sign-in engine
 * runs for the session's user, so a single-organization user of a first-party client goes straight back
 * to the client without seeing a page. A third-party client reuses the session too but still gets the
 * consent page unless the user's grant covers the scopes (docs/reference/sign-in.md "Issuer session
 * reuse").
 *
 * prompt=none never shows a page (OpenID Connect Core §3.1.2.6): no reusable session → login_required;
 * several organizations to choose from → interaction_required; a third-party client without a covering
 * grant → consent_required.
 */
export class StartAuthorization {
  readonly #deps: AuthorizeFlowDeps;
  readonly #completion: AuthorizeCompletion;
  readonly #options: StartOptions;

  constructor(deps: AuthorizeFlowDeps, completion: AuthorizeCompletion, options: StartOptions) {
    this.#deps = deps;
    this.#completion = completion;
    this.#options = options;
  }

  /** `sessionless`: the request's sign-in leaves the browser's issuer session alone (repository.ts). */
  async run(
    request: AuthorizeRequest,
    browser: BrowserContext & { readonly browserId: string },
    session: ResolvedBrowserSession | null,
    sessionless = false,
  ): Promise<AuthorizeStartOutcome> {
    const { browserId } = browser;
    const silent = request.prompt.has('none');
    const id = this.#deps.ids.id('azr');
    const fail = (error: OAuthErrorCode, description: string): AuthorizeStartOutcome => ({
      kind: 'redirect',
      location: errorRedirect(request, error, description, this.#deps.issuer),
    });
    const interact: AuthorizeStartOutcome = { kind: 'interact', requestId: id, view: null };

    if (session === null) {
      if (silent) return fail('login_required', 'The user is not signed in.');
      // view=password with an email login_hint goes straight to the password step.
      const hintedEmail = request.view === 'password' ? emailSchema.safeParse(request.loginHint ?? '') : null;
      await this.#insert(
        request,
        id,
        browserId,
        { status: 'pending', ...(hintedEmail?.success === true ? { email: hintedEmail.data } : {}) },
        null,
        sessionless,
      );
      return { ...interact, view: request.view };
    }

    const outcome = await this.#deps.signIn.signIn({
      userId: session.userId,
      clientId: request.client.clientId,
      requestedOrganizationId: null,
      amr: session.amr,
      authTime: session.authTime,
      flow: this.#options.flow,
      resume: { authRequestId: id },
    });
    if (outcome.kind === 'organization_selection') {
      if (silent) return fail('interaction_required', 'The user must choose an organization.');
      await this.#insert(request, id, browserId, {
        status: 'organization_selection',
        userId: session.userId,
        amr: session.amr,
        authTime: session.authTime,
      });
      return interact;
    }
    if (outcome.kind === 'mfa') {
      // The reused session did not pass a second factor that is now required (or set up).
      if (silent) return fail('interaction_required', 'The user must complete multi-factor authentication.');
      await this.#insert(request, id, browserId, {
        status: 'mfa',
        userId: outcome.identity.userId,
        organizationId: outcome.identity.organizationId,
        amr: outcome.identity.amr,
        authTime: outcome.identity.authTime,
        challenge: {
          kind: outcome.enrollmentRequired ? 'mfa_enrollment' : 'mfa',
          hash: sha256Hex(outcome.mfaToken),
          target: outcome.methods.join(','),
        },
      });
      return interact;
    }

    const identity: AuthorizedIdentity = {
      userId: outcome.identity.userId,
      organizationId: outcome.identity.organizationId,
      amr: outcome.identity.amr,
      authTime: outcome.identity.authTime,
    };
    const consentInput = { prompt: [...request.prompt], grantedScopes: request.grantedScopes };
    if (silent && (await this.#completion.needsConsent(consentInput, request.client, identity.userId))) {
      // A user the client's access rules refuse hears that, not an invitation to consent.
      if (await this.#completion.deniesAccess(request.client, identity)) {
        return fail('access_denied', ACCESS_DENIED_MESSAGE);
      }
      return fail('consent_required', 'The user has not consented to this client.');
    }
    const record = await this.#insert(request, id, browserId, { status: 'pending' });
    const result = await this.#completion.afterSignIn(record, 'pending', identity, browser);
    if (result.kind === 'redirect') return result;
    // Only a concurrent change (a grant revoked this instant) can ask for a page here.
    return silent ? fail('interaction_required', 'The user must interact with the sign-in.') : interact;
  }

  /**
   * A valid request carrying an invitation token: bound to the usable invitation (by id), waiting for
   * the invited address to sign in or sign up. It never reuses the issuer session, because accepting an
   * invitation is the user's own act; so prompt=none is `interaction_required`. An unusable token is
   * the "no longer valid" error (a page, or the headless error), not a request without the invitation.
   */
  async runBound(
    request: AuthorizeRequest,
    token: string,
    browser: { readonly browserId: string; readonly ipAddress?: string | undefined },
  ): Promise<AuthorizeStartOutcome> {
    if (request.prompt.has('none')) {
      const description = 'Accepting an invitation needs the user.';
      return {
        kind: 'redirect',
        location: errorRedirect(request, 'interaction_required', description, this.#deps.issuer),
      };
    }
    const invitations = this.#deps.invitations;
    if (invitations === undefined) throw invitationUnusableError();
    const invitation = await invitationOperation(() =>
      invitations.bind(token, request.client.clientId, browser.ipAddress),
    );
    const id = this.#deps.ids.id('azr');
    await this.#insert(
      request,
      id,
      browser.browserId,
      { status: 'pending', email: invitation.email },
      invitation.id,
    );
    return { kind: 'interact', requestId: id, view: null };
  }

  async #insert(
    request: AuthorizeRequest,
    id: string,
    browserId: string,
    progress: AuthRequestChange,
    invitationId: string | null = null,
    sessionless = false,
  ): Promise<AuthRequestRecord> {
    const now = this.#deps.clock.now();
    const record: AuthRequestRecord = {
      id,
      clientId: request.client.clientId,
      redirectUri: request.redirectUri,
      state: request.state,
      requestedScopes: request.requestedScopes,
      grantedScopes: request.grantedScopes,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
      resource: request.resource,
      nonce: request.nonce,
      prompt: [...request.prompt],
      maxAge: request.maxAge,
      loginHint: request.loginHint,
      view: request.view,
      uiContext: request.uiContext,
      browserBinding: sha256Hex(browserId),
      status: progress.status,
      email: progress.email ?? null,
      userId: progress.userId ?? null,
      organizationId: progress.organizationId ?? null,
      amr: progress.amr ?? null,
      authTime: progress.authTime ?? null,
      createdAt: now,
      updatedAt: now,
      expiresAt: now + this.#options.lifetimeMs,
      completedAt: null,
      challenge: progress.challenge ?? null,
      sealedDeviceUserCode: null,
      invitationId,
      sessionless,
    };
    await this.#deps.requests.insert(record);
    return record;
  }
}
