import type { SvcAcceptEmailInvitationSignupRequest, SvcLoginResult } from '@svc/contract';
import type { Clock } from '../../../kernel/clock.js';
import { SvcConflictError, SvcValidationError } from '../../../kernel/errors.js';
import { directCallOf, tokenCheckAddress, type DirectSignIn } from '../../direct-sign-in.js';
import type { SignupService } from '../../signup.js';
import { createPasswordlessAccount } from '../signup/passwordless-signup.js';
import type { InvitationService } from './invitation-service.js';
import type { InvitationRecord } from './repository.js';

/** RFC 8176 has no invitation method; the emailed link proves control of the address, as a magic link does. */
export const AMR_INVITATION = 'email';

export interface InvitationSignupDeps {
  readonly invitations: InvitationService;
  /** Creates the account as every passwordless signup does (the user service: `admin.user.created`). */
  readonly signup: Pick<SignupService, 'signUpPasswordless'>;
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient' | 'completeSignIn'>;
  readonly clock: Clock;
}

const CONTROL_CHARS = /\p{Cc}/u;

/** The display name of an invited account: trimmed, 1 to 200 characters, no control characters. */
export function requireInvitedDisplayName(raw: unknown): string {
  const displayName = typeof raw === 'string' ? raw.trim() : '';
  if (displayName === '' || displayName.length > 200 || CONTROL_CHARS.test(displayName)) {
    throw new SvcValidationError('A display name is required.', [
      { path: 'displayName', message: 'Invalid.' },
    ]);
  }
  return displayName;
}

/**
 * docs/reference/sign-in.md "Invitations" AcceptEmailInvitationSignupAsync: creates a passwordless account for the invited address
 * (email verified: the link proved it), accepts the invitation (membership) and signs the user in to the
 * invitation's organization. docs/reference/sign-in.md "Invitations" lists invitation signup among the sign-in operations that produce an
 * SvcLoginResult, so the first-party rule of the direct helpers applies: the client is checked first,
 * before the token is even looked at (docs/reference/sign-in.md "Direct JSON helpers").
 */
export class InvitationSignup {
  readonly #deps: InvitationSignupDeps;

  constructor(deps: InvitationSignupDeps) {
    this.#deps = deps;
  }

  async acceptEmailInvitationSignup(
    request: SvcAcceptEmailInvitationSignupRequest,
    context?: { route?: string; ipAddress?: string; userAgent?: string },
  ): Promise<SvcLoginResult> {
    const clientSecret = typeof request.clientSecret === 'string' ? request.clientSecret : null;
    const call = directCallOf('acceptEmailInvitationSignupAsync', context, clientSecret);
    const clientId = typeof request.clientId === 'string' ? request.clientId : null;
    const client = await this.#deps.direct.requireFirstPartyClient(clientId, call);
    const displayName = requireInvitedDisplayName(request.displayName);
    const invitation = await this.#deps.invitations.findUsableInvitation(
      request.invitationToken,
      tokenCheckAddress(client, call),
    );
    const { userId, authTime } = await this.createInvitedAccount(
      invitation,
      displayName,
      context?.ipAddress === undefined ? undefined : { ipAddress: context.ipAddress },
    );
    return this.#deps.direct.completeSignIn(
      {
        userId,
        client,
        requestedOrganizationId: invitation.organizationId,
        amr: AMR_INVITATION,
        method: 'invitation_signup',
        authTime,
      },
      call,
    );
  }

  /**
   * The part every invitation signup shares (this operation and the hosted invitation page): creates the
   * passwordless account of the invited address through the user service, as every signup does (its
   * email verified: the link proved it; audited `admin.user.created`), and accepts the invitation for
   * it. `displayName` comes from `requireInvitedDisplayName`. A 409 when an account already has the
   * address; `invalid_invitation` when the invitation was used meanwhile.
   */
  async createInvitedAccount(
    invitation: InvitationRecord,
    displayName: string,
    context?: { ipAddress?: string },
  ): Promise<{ userId: string; authTime: number }> {
    const now = this.#deps.clock.now();
    // The user service computes the email key again: an invitation stored before 0043 may hold an
    // address the key now refuses (400).
    const created = await createPasswordlessAccount(this.#deps.signup, {
      displayName,
      email: invitation.email,
      phoneE164: null,
      customFields: null,
      organizationName: null,
    });
    // An existing account accepts with AcceptEmailInvitationAsync after signing in; a second account for
    // the same address cannot exist (the email key is unique).
    if (created === undefined) {
      throw new SvcConflictError(
        'An account with this email already exists; sign in to accept the invitation.',
      );
    }
    await this.#deps.invitations.consumeInvitation(invitation, created.userId, context);
    return { userId: created.userId, authTime: now };
  }
}
