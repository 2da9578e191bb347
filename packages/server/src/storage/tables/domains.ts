import type { Generated } from 'kysely';

/** Organization domain claims (migration 0023). */
export interface OrganizationDomainsTable {
  id: string;
  organizationId: string;
  /** Lower case, ASCII (IDNA A-labels). */
  domain: string;
  /** pending_ownership, active or revoked. */
  status: string;
  verificationValue: string;
  createdAt: number;
  updatedAt: number;
  verifiedAt: number | null;
  revokedAt: number | null;
  /** The last look-up of the TXT record: all three set, or all null. */
  lastCheckedAt: number | null;
  lastCheckResult: string | null;
  lastCheckMessage: string | null;
  failedRechecks: Generated<number>;
  nextCheckAt: number | null;
}
