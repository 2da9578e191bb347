import type { SvcLoginResult } from '@svc/contract';
import type { UserRepository } from '../admin/repository.js';
import type { Clock } from '../kernel/clock.js';
import { SvcConflictError, SvcValidationError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { TokenEngine } from '../oauth/tokens/token-engine.js';
import { toSvcTokenResponse } from '../oauth/tokens/issued-tokens.js';
import { DIRECT_FLOW, type DirectCallContext, type DirectSignIn } from '../signin/direct-sign-in.js';
import type { SignInEngine } from '../signin/sign-in-engine.js';
import type { InvitationService } from './invitation-service.js';

/** RFC 8176 has no invitation method; the emailed link proves control of the address, as a magic link does. */
export const AMR_INVITATION = 'email';

/** SPEC.md SvcAcceptEmailInvitationSignupRequest. */
export interface SvcAcceptEmailInvitationSignupRequest {
  readonly invitationToken: string;
  readonly displayName: string;
  readonly clientId: string;
  readonly customFields?: Readonly<Record<string, string>> | null | undefined;
}

export interface InvitationSignupDeps {
  readonly invitations: InvitationService;
  readonly users: Pick<UserRepository, 'insertIfEmailFree' | 'findByEmailKey'>;
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient'>;
  readonly engine: Pick<SignInEngine, 'signIn'>;
  readonly tokens: Pick<TokenEngine, 'sessions'>;
  readonly clock: Clock;
  readonly ids: Ids;
}

const EMPTY_RESULT = {
  requiresOrganizationSelection: false,
  pendingAuthToken: null,
  organizations: [],
  tokens: null,
  requiresMfa: false,
  mfaToken: null,
  requiresMfaEnrollment: false,
  mfaMethods: null,
} satisfies SvcLoginResult;

const CONTROL_CHARS = /\p{Cc}/u;

/**
 * SPEC.md AcceptEmailInvitationSignupAsync: creates a passwordless account for the invited address
 * (email verified: the link proved it), accepts the invitation (membership) and signs the user in to the
 * invitation's organization. SPEC.md lists invitation signup among the sign-in operations that produce an
 * SvcLoginResult, so the first-party rule of the direct helpers applies: the client is checked first,
 * before the token is even looked at (docs/decisions.md).
 */
export class InvitationSignup {
  readonly #deps: InvitationSignupDeps;

  constructor(deps: InvitationSignupDeps) {
    this.#deps = deps;
  }

  async acceptEmailInvitationSignupAsync(
    request: SvcAcceptEmailInvitationSignupRequest,
    context?: { route?: string; ipAddress?: string; userAgent?: string },
  ): Promise<SvcLoginResult> {
    const call: DirectCallContext = {
      operation: context?.route ?? 'acceptEmailInvitationSignupAsync',
      ipAddress: context?.ipAddress ?? null,
      userAgent: context?.userAgent ?? null,
    };
    const clientId = typeof request.clientId === 'string' ? request.clientId : null;
    const client = await this.#deps.direct.requireFirstPartyClient(clientId, call);
    const displayName = typeof request.displayName === 'string' ? request.displayName.trim() : '';
    if (displayName === '' || displayName.length > 200 || CONTROL_CHARS.test(displayName)) {
      throw new SvcValidationError('A display name is required.', [
        { path: 'displayName', message: 'Invalid.' },
      ]);
    }
    const invitation = await this.#deps.invitations.findUsableInvitation(request.invitationToken);
    const now = this.#deps.clock.now();
    const user = {
      id: this.#deps.ids.id('usr'),
      displayName,
      email: invitation.email,
      emailKey: invitation.emailKey,
      emailVerified: true,
      passwordHash: null,
      isOperator: false,
      active: true,
      createdAt: now,
      updatedAt: now,
    };
    // An existing account accepts with AcceptEmailInvitationAsync after signing in; a second account for
    // the same address cannot exist (the email key is unique).
    if (!(await this.#deps.users.insertIfEmailFree(user))) {
      throw new SvcConflictError(
        'An account with this email already exists; sign in to accept the invitation.',
      );
    }
    await this.#deps.invitations.consumeInvitation(
      invitation,
      user.id,
      context?.ipAddress === undefined ? undefined : { ipAddress: context.ipAddress },
    );
    const outcome = await this.#deps.engine.signIn({
      userId: user.id,
      clientId: client.clientId,
      requestedOrganizationId: invitation.organizationId,
      amr: [AMR_INVITATION],
      authTime: now,
      flow: DIRECT_FLOW,
    });
    if (outcome.kind === 'organization_selection') {
      return {
        ...EMPTY_RESULT,
        requiresOrganizationSelection: true,
        pendingAuthToken: outcome.pendingAuthToken,
        organizations: outcome.organizations,
      };
    }
    // As DirectSignIn does for password login: the client's whole allow-list, no resource, no ID token.
    const tokens = await this.#deps.tokens.sessions.issueForNewSession({
      userId: user.id,
      client,
      organizationId: outcome.identity.organizationId,
      scopes: client.allowedScopes,
      resource: null,
      amr: outcome.identity.amr,
      authTime: outcome.identity.authTime,
      includeIdToken: false,
      userAgent: call.userAgent ?? null,
      ipAddress: call.ipAddress ?? null,
    });
    return { ...EMPTY_RESULT, tokens: toSvcTokenResponse(tokens) };
  }
}
