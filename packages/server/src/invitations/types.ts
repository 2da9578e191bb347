import type { InvitationRecord } from './repository.js';

/** The in-process request and result records of the invitation operations (SPEC.md names). */

/** SPEC.md SvcCreateEmailInvitationRequest. */
export interface SvcCreateEmailInvitationRequest {
  readonly organizationId: string;
  readonly email: string;
  readonly role: string;
  readonly clientId?: string | null | undefined;
  readonly redirectUri?: string | null | undefined;
  readonly customFields?: Readonly<Record<string, string>> | null | undefined;
}

/** SPEC.md SvcAcceptEmailInvitationRequest. */
export interface SvcAcceptEmailInvitationRequest {
  readonly invitationToken: string;
  readonly userId: string;
}

/** SPEC.md SvcResendEmailInvitationRequest. */
export interface SvcResendEmailInvitationRequest {
  readonly id: string;
}

/** SPEC.md SvcRevokeEmailInvitationRequest. */
export interface SvcRevokeEmailInvitationRequest {
  readonly id: string;
  readonly reason?: string | null | undefined;
}

/** An invitation as callers see it (DECISIONS.md "Invitations (operator)"); never its token. */
export interface SvcEmailInvitation {
  readonly id: string;
  readonly organizationId: string;
  readonly email: string;
  readonly role: string;
  readonly status: InvitationRecord['status'];
  /** ISO-8601. */
  readonly expiresAt: string;
}

/** What accepting an invitation did: the membership of the user in the organization. */
export interface SvcEmailInvitationAcceptance {
  readonly invitationId: string;
  readonly organizationId: string;
  readonly userId: string;
  readonly role: string;
}
