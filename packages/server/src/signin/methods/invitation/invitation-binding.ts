import type { UserRepository } from '../../../directory/repository.js';
import type { AuditLog } from '../../../audit/audit-log.js';
import type {
  InvitationAcceptance,
  InvitationAcceptOutcome,
  InvitationBrowser,
  SignedOutInvitationPage,
} from './invitation-acceptance.js';
import { invalidInvitationError, type InvitationService } from './invitation-service.js';
import type { InvitationRepository } from './repository.js';

/** What binding an authorization request to an invitation keeps: its id and the invited address. */
export interface BoundInvitation {
  readonly id: string;
  readonly email: string;
}

/** A sign-in on a bound request: the invitee joined (now or before), or another account signed in. */
export type InvitationJoin =
  { readonly kind: 'joined'; readonly organizationId: string } | { readonly kind: 'other_account' };

export interface InvitationBindingDeps {
  readonly acceptance: Pick<InvitationAcceptance, 'openSignedOut' | 'acceptWithSignup'>;
  readonly invitations: Pick<
    InvitationService,
    'findUsableInvitation' | 'findUsableInvitationById' | 'consumeInvitation'
  >;
  readonly repository: Pick<InvitationRepository, 'findById'>;
  readonly users: Pick<UserRepository, 'findById'>;
  readonly audit: AuditLog;
}

/**
 * An authorization request bound to an invitation (docs/reference/sign-in.md "Invitations" /authorize `invitation_token`, headless
 * /start `invitationToken`): the request stores only the invitation's id, offers the invited address's
 * sign-in or signup, and accepts the invitation when that address signs in. Every unusable invitation
 * (unknown, resent, revoked, expired, used) is the one public `invalid_invitation`.
 */
export class InvitationBinding {
  readonly #deps: InvitationBindingDeps;

  constructor(deps: InvitationBindingDeps) {
    this.#deps = deps;
  }

  /**
   * The usable invitation of a token, for a request of `clientId`. An invitation created for a client
   * binds only that client's requests; one without a client binds any. A token of another client's
   * invitation is `invalid_invitation` like any unusable one, so a token cannot be probed for its client.
   */
  async bind(token: string, clientId: string, address: string | undefined): Promise<BoundInvitation> {
    const invitation = await this.#deps.invitations.findUsableInvitation(token, address);
    if (invitation.clientId !== null && invitation.clientId !== clientId) throw invalidInvitationError();
    return { id: invitation.id, email: invitation.email };
  }

  /** How the invited address signs in or signs up, whatever session the browser has. */
  page(invitationId: string): Promise<SignedOutInvitationPage> {
    return this.#deps.acceptance.openSignedOut({ invitationId });
  }

  /** Creates the invited address's account and accepts; the request then signs it in itself. */
  signup(
    invitationId: string,
    displayName: unknown,
    browser: InvitationBrowser,
  ): Promise<InvitationAcceptOutcome> {
    return this.#deps.acceptance.acceptWithSignup({ invitationId }, displayName, browser, {
      startSession: false,
    });
  }

  /**
   * A user proved a credential on a bound request (`method` as the audit trail names it). The invitee
   * accepts now (consumed once: membership, verified email) unless they accepted already; any other
   * account is refused (`invitation.sign_in.failed`, reason `other_account`) and accepts nothing.
   */
  async join(
    invitationId: string,
    userId: string,
    browser: InvitationBrowser,
    method: string,
  ): Promise<InvitationJoin> {
    const current = await this.#deps.repository.findById(invitationId);
    if (current?.status === 'accepted' && current.acceptedUserId === userId) {
      return { kind: 'joined', organizationId: current.organizationId };
    }
    const invitation = await this.#deps.invitations.findUsableInvitationById(invitationId);
    const user = await this.#deps.users.findById(userId);
    const ipAddress = browser.ipAddress === undefined ? {} : { ipAddress: browser.ipAddress };
    if (user?.active !== true || user.emailKey !== invitation.emailKey) {
      await this.#deps.audit.record({
        kind: 'invitation.sign_in.failed',
        actorType: 'user',
        actorId: userId,
        organizationId: invitation.organizationId,
        ...(invitation.clientId === null ? {} : { clientId: invitation.clientId }),
        ...ipAddress,
        data: { invitationId, method, reason: 'other_account' },
      });
      return { kind: 'other_account' };
    }
    await this.#deps.invitations.consumeInvitation(invitation, user.id, ipAddress);
    return { kind: 'joined', organizationId: invitation.organizationId };
  }
}
