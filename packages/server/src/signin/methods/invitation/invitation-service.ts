import {
  opaqueTokenSchema,
  type Page,
  type SvcAcceptEmailInvitationRequest,
  type SvcCreateEmailInvitationInput,
  type SvcEmailInvitation,
  type SvcEmailInvitationAcceptance,
  type SvcResendEmailInvitationRequest,
  type SvcRevokeEmailInvitationInput,
} from '@svc/contract';
import { actorFields, type AdminActor } from '../../../audit/actor.js';
import { requireEmailKey } from '../../../directory/email-key.js';
import type { DirectoryRepositories, ListQuery } from '../../../directory/repository.js';
import type { AuditLog } from '../../../audit/audit-log.js';
import type { EmailService } from '../../../email/email-service.js';
import { DAY_MS, toIso, type Clock } from '../../../kernel/clock.js';
import { sha256Hex } from '../../../kernel/crypto.js';
import {
  SvcNotFoundError,
  SvcPublicAuthError,
  SvcValidationError,
  SvcInvalidOperationError,
} from '../../../kernel/errors.js';
import type { Ids } from '../../../kernel/ids.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../../../ratelimit/handed-out-tokens.js';
import type { RateLimiter } from '../../../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../../../ratelimit/rules.js';
import type { InvitationRecord, InvitationRepository, InvitationStatus } from './repository.js';

/** docs/reference/sign-in.md "Invitations": invitations expire after 7 days. */
export const INVITATION_LIFETIME_MS = 7 * DAY_MS;

export interface InvitationServiceDeps {
  readonly invitations: InvitationRepository;
  readonly admin: Pick<DirectoryRepositories, 'organizations' | 'users' | 'memberships' | 'clients'>;
  readonly email: EmailService;
  readonly rateLimiter: RateLimiter;
  /** config.rateLimits.invitationSend: identifier = the invited email key. */
  readonly sendPolicy: RateLimitPolicy;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** `{PublicOrigin}{authBase}`: the InviteUrl is `${linkBase}/invitations/accept?token=…`. */
  readonly linkBase: string;
  /** Tokens that found no usable invitation, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
}

/**
 * Email invitations into an organization (docs/reference/sign-in.md "Invitations" lifecycle): create → pending with the
 * token only in the emailed InviteUrl and its SHA-256 stored; resend → a new token, the previous one
 * invalid; revoke → no future acceptance; accept → the invited email must equal the user's normalized
 * email, then the invitation is consumed once, the membership created or reactivated and the email
 * marked verified.
 */
export class InvitationService {
  readonly #deps: InvitationServiceDeps;

  constructor(deps: InvitationServiceDeps) {
    this.#deps = deps;
  }

  /**
   * docs/reference/sign-in.md "Invitations" CreateEmailInvitationAsync: stores a pending invitation and emails the InviteUrl.
   * The request is parsed at the edge (the role lower-cased, absent fields null or empty).
   */
  async createEmailInvitation(
    request: SvcCreateEmailInvitationInput,
    actor?: AdminActor,
  ): Promise<SvcEmailInvitation> {
    const { email, role, clientId, redirectUri, customFields } = request;
    const emailKey = requireEmailKey(email);
    const organization = await this.#organization(request.organizationId);
    await this.#checkClient(clientId, redirectUri);

    const now = this.#deps.clock.now();
    const token = this.#deps.ids.secret();
    const invitation: InvitationRecord = {
      id: this.#deps.ids.id('inv'),
      organizationId: organization.id,
      email,
      emailKey,
      role,
      clientId,
      redirectUri,
      customFields,
      status: 'pending',
      tokenHash: sha256Hex(token),
      expiresAt: now + INVITATION_LIFETIME_MS,
      createdAt: now,
      resentAt: null,
      revokedAt: null,
      revokeReason: null,
      acceptedAt: null,
      acceptedUserId: null,
    };
    // Counted but never refused on creation: an operator's explicit invite is not throttled; the count
    // makes an immediate resend wait for the policy's interval (docs/reference/sign-in.md "Invitations").
    await this.#deps.rateLimiter.consume(this.#deps.sendPolicy, { identifier: invitation.emailKey });
    await this.#deps.invitations.insert(invitation);
    const delivery = await this.#send(invitation, organization.name, token);
    await this.#deps.audit.record({
      kind: 'admin.invitation.created',
      ...actorFields(actor),
      organizationId: organization.id,
      ...(clientId === null ? {} : { clientId }),
      data: { invitationId: invitation.id, role, deliveryId: delivery.id, deliveryStatus: delivery.status },
    });
    return view(invitation);
  }

  /** The organization's invitations, newest first (status shows `expired` once past expiresAt). */
  async listEmailInvitations(
    organizationId: string,
    query: ListQuery & { readonly status?: InvitationStatus | undefined },
  ): Promise<Page<SvcEmailInvitation>> {
    const organization = await this.#organization(organizationId);
    const now = this.#deps.clock.now();
    const { status, ...page } = query;
    const found = await this.#deps.invitations.listByOrganization(organization.id, { status, now }, page);
    return { ...found, data: found.data.map((row) => view(row, now)) };
  }

  /** One invitation by id, in any status (never its token). */
  async getEmailInvitation(invitationId: string): Promise<SvcEmailInvitation> {
    return view(await this.#existing(invitationId), this.#deps.clock.now());
  }

  /** docs/reference/sign-in.md "Invitations" ResendEmailInvitationAsync: a new token and expiry; the previous link stops working. */
  async resendEmailInvitation(
    request: SvcResendEmailInvitationRequest,
    actor?: AdminActor,
  ): Promise<SvcEmailInvitation> {
    const invitation = await this.#pending(request.id);
    const decision = await this.#deps.rateLimiter.consume(this.#deps.sendPolicy, {
      identifier: invitation.emailKey,
      ...(actor?.ipAddress === undefined ? {} : { ip: actor.ipAddress }),
    });
    if (!decision.allowed) {
      throw new SvcPublicAuthError(
        'rate_limited',
        `Too many invitation emails; retry after ${toIso(decision.nextAllowedAt)}.`,
        429,
      );
    }
    const organization = await this.#deps.admin.organizations.findById(invitation.organizationId);
    const now = this.#deps.clock.now();
    const token = this.#deps.ids.secret();
    const expiresAt = now + INVITATION_LIFETIME_MS;
    if (!(await this.#deps.invitations.replaceToken(invitation.id, sha256Hex(token), expiresAt, now))) {
      throw new SvcInvalidOperationError('The invitation is no longer pending.');
    }
    const updated = { ...invitation, expiresAt, resentAt: now };
    const delivery = await this.#send(updated, organization?.name ?? '', token);
    await this.#deps.audit.record({
      kind: 'admin.invitation.resent',
      ...actorFields(actor),
      organizationId: invitation.organizationId,
      data: { invitationId: invitation.id, deliveryId: delivery.id, deliveryStatus: delivery.status },
    });
    return view(updated, now);
  }

  /** docs/reference/sign-in.md "Invitations" RevokeEmailInvitationAsync: the invitation can no longer be accepted. */
  async revokeEmailInvitation(
    request: SvcRevokeEmailInvitationInput,
    actor?: AdminActor,
  ): Promise<SvcEmailInvitation> {
    const invitation = await this.#pending(request.id);
    const { reason } = request;
    const now = this.#deps.clock.now();
    if (!(await this.#deps.invitations.revoke(invitation.id, reason, now))) {
      throw new SvcInvalidOperationError('The invitation is no longer pending.');
    }
    await this.#deps.audit.record({
      kind: 'admin.invitation.revoked',
      ...actorFields(actor),
      organizationId: invitation.organizationId,
      data: { invitationId: invitation.id, reason },
    });
    return { ...view(invitation, now), status: 'revoked' };
  }

  /**
   * docs/reference/sign-in.md "Invitations" AcceptEmailInvitationAsync for an existing user. Every token failure (unknown, resent,
   * revoked, expired, used) is the same public error so that a token cannot be probed for its state.
   */
  async acceptEmailInvitation(
    request: SvcAcceptEmailInvitationRequest,
    context?: { ipAddress?: string },
  ): Promise<SvcEmailInvitationAcceptance> {
    const invitation = await this.findUsableInvitation(request.invitationToken, context?.ipAddress);
    const user =
      typeof request.userId === 'string' ? await this.#deps.admin.users.findById(request.userId) : undefined;
    if (user === undefined || !user.active || user.emailKey !== invitation.emailKey) {
      throw new SvcPublicAuthError(
        'invalid_invitation',
        'The invitation was sent to a different email address.',
      );
    }
    return this.consumeInvitation(invitation, user.id, context);
  }

  /**
   * Consumes the invitation for the user (once), then the membership and the verified email. For the
   * accept operations (and InvitationSignup); the caller has checked that the user owns the invited email.
   */
  async consumeInvitation(
    invitation: InvitationRecord,
    userId: string,
    context?: { ipAddress?: string },
  ): Promise<SvcEmailInvitationAcceptance> {
    const now = this.#deps.clock.now();
    if (!(await this.#deps.invitations.accept(invitation.id, invitation.tokenHash, userId, now))) {
      throw invalidInvitationError();
    }
    const membership = await this.#deps.admin.memberships.upsert({
      id: this.#deps.ids.id('mem'),
      organizationId: invitation.organizationId,
      userId,
      role: invitation.role,
      active: true,
      createdAt: now,
      updatedAt: now,
    });
    await this.#deps.invitations.markEmailVerified(userId, now);
    await this.#deps.audit.record({
      kind: 'invitation.accepted',
      actorType: 'user',
      actorId: userId,
      organizationId: invitation.organizationId,
      userId,
      ...(invitation.clientId === null ? {} : { clientId: invitation.clientId }),
      ...(context?.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
      data: { invitationId: invitation.id, membershipId: membership.id, role: membership.role },
    });
    return {
      invitationId: invitation.id,
      organizationId: invitation.organizationId,
      userId,
      role: membership.role,
    };
  }

  /**
   * The pending, unexpired invitation of a token, or the generic public error (never its state). A
   * token of no usable invitation is counted against the address it came from.
   */
  async findUsableInvitation(token: unknown, address: string | null | undefined): Promise<InvitationRecord> {
    // Not the shape of a token Svc issues: refused without a lookup, so not counted either.
    const shaped = opaqueTokenSchema.safeParse(token);
    if (!shaped.success) throw invalidInvitationError();
    // Looked up by hash: the stored hash is an index key, so equality is the constant-time comparison.
    const usable = await lookUpHandedOut(this.#deps.tokenChecks, address, async () =>
      this.#usableOrNone(await this.#deps.invitations.findByTokenHash(sha256Hex(shaped.data))),
    );
    if (usable === undefined) throw invalidInvitationError();
    return usable;
  }

  /**
   * The pending, unexpired invitation with this id (an authorization request bound to it stores only the
   * id), or the same generic public error.
   */
  async findUsableInvitationById(id: string): Promise<InvitationRecord> {
    return this.#usable(await this.#deps.invitations.findById(id));
  }

  #usable(invitation: InvitationRecord | undefined): InvitationRecord {
    const usable = this.#usableOrNone(invitation);
    if (usable === undefined) throw invalidInvitationError();
    return usable;
  }

  #usableOrNone(invitation: InvitationRecord | undefined): InvitationRecord | undefined {
    const usable = invitation?.status === 'pending' && invitation.expiresAt > this.#deps.clock.now();
    return usable ? invitation : undefined;
  }

  // The ids were parsed at the edge (no control character, none too long), so they are safe to query.
  async #organization(id: string) {
    const organization = await this.#deps.admin.organizations.findById(id);
    if (organization === undefined) throw new SvcNotFoundError(`Organization '${id}' was not found.`);
    return organization;
  }

  async #existing(id: string): Promise<InvitationRecord> {
    const invitation = await this.#deps.invitations.findById(id);
    if (invitation === undefined) throw new SvcNotFoundError(`Invitation '${id}' was not found.`);
    return invitation;
  }

  async #pending(invitationId: string): Promise<InvitationRecord> {
    const invitation = await this.#existing(invitationId);
    if (invitation.status !== 'pending') {
      throw new SvcInvalidOperationError(`The invitation is ${invitation.status}.`);
    }
    return invitation;
  }

  async #checkClient(clientId: string | null, redirectUri: string | null): Promise<void> {
    if (clientId === null) {
      if (redirectUri !== null) {
        throw new SvcValidationError('A redirectUri needs a clientId.', [
          { path: 'clientId', message: 'Required.' },
        ]);
      }
      return;
    }
    const client = await this.#deps.admin.clients.findByClientId(clientId);
    if (client === undefined || !client.active) {
      throw new SvcValidationError(`Client '${clientId}' was not found.`, [
        { path: 'clientId', message: 'Unknown.' },
      ]);
    }
    if (redirectUri !== null && !client.redirectUris.includes(redirectUri)) {
      throw new SvcValidationError('The redirectUri is not registered for the client.', [
        { path: 'redirectUri', message: 'Not registered.' },
      ]);
    }
  }

  #send(invitation: InvitationRecord, organizationName: string, token: string) {
    const link = `${this.#deps.linkBase}/invitations/accept?token=${encodeURIComponent(token)}`;
    return this.#deps.email.send({
      templateKey: 'auth.invitation',
      to: invitation.email,
      variables: {
        organizationName,
        link,
        expiresInMinutes: String(Math.round((invitation.expiresAt - this.#deps.clock.now()) / 60_000)),
      },
    });
  }
}

/** The one answer to every unusable invitation (unknown, resent, revoked, expired, used). */
export function invalidInvitationError(): SvcPublicAuthError {
  return new SvcPublicAuthError('invalid_invitation', 'The invitation is invalid or has expired.');
}

function view(invitation: InvitationRecord, now?: number): SvcEmailInvitation {
  const expired = invitation.status === 'pending' && now !== undefined && invitation.expiresAt <= now;
  return {
    id: invitation.id,
    organizationId: invitation.organizationId,
    email: invitation.email,
    role: invitation.role,
    status: expired ? 'expired' : invitation.status,
    expiresAt: toIso(invitation.expiresAt),
    createdAt: toIso(invitation.createdAt),
    resentAt: invitation.resentAt === null ? null : toIso(invitation.resentAt),
  };
}
