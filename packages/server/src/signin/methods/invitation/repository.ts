import type { Page } from '@svc/contract';
import type { ListQuery } from '../../../directory/repository.js';

/** Where an invitation is in its lifecycle (docs/reference/sign-in.md "Invitations"). */
export type InvitationStatus = 'pending' | 'accepted' | 'revoked' | 'expired';

/** One stored invitation. Times are epoch ms; `tokenHash` is the SHA-256 of the current token only. */
export interface InvitationRecord {
  readonly id: string;
  readonly organizationId: string;
  /** As typed (trimmed); the delivery address. */
  readonly email: string;
  /** emailLookupKey(email): compared with the accepting user's key. */
  readonly emailKey: string;
  readonly role: string;
  readonly clientId: string | null;
  readonly redirectUri: string | null;
  readonly customFields: Readonly<Record<string, string>>;
  readonly status: InvitationStatus;
  readonly tokenHash: string;
  readonly expiresAt: number;
  readonly createdAt: number;
  readonly resentAt: number | null;
  readonly revokedAt: number | null;
  readonly revokeReason: string | null;
  readonly acceptedAt: number | null;
  readonly acceptedUserId: string | null;
}

/** The storage the invitations domain owns. Conditional updates answer whether they changed a row. */
export interface InvitationRepository {
  insert(invitation: InvitationRecord): Promise<void>;
  findById(id: string): Promise<InvitationRecord | undefined>;
  findByTokenHash(tokenHash: string): Promise<InvitationRecord | undefined>;
  /**
   * Newest first, keyset paged; of one status as the operator sees it when `status` is given (`expired`:
   * pending past its expiry at `now`, `pending`: not yet).
   */
  listByOrganization(
    organizationId: string,
    filter: { readonly status?: InvitationStatus | undefined; readonly now: number },
    query: ListQuery,
  ): Promise<Page<InvitationRecord>>;
  /** Replaces the token of a pending invitation; false when it is no longer pending. */
  replaceToken(id: string, tokenHash: string, expiresAt: number, now: number): Promise<boolean>;
  /** Revokes a pending invitation; false when it is no longer pending. */
  revoke(id: string, reason: string | null, now: number): Promise<boolean>;
  /**
   * Consumes the invitation (single use): pending, same token hash, not expired at `now`. True only for
   * the one caller whose update changed the row.
   */
  accept(id: string, tokenHash: string, userId: string, now: number): Promise<boolean>;
  /** Marks the user's email verified (the invitation proved the address). */
  markEmailVerified(userId: string, now: number): Promise<void>;
}
