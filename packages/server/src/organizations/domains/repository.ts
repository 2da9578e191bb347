import type { Page, PageQuery, SvcDomainCheckResult, SvcDomainClaimStatus } from '@svc/contract';

/** One look-up of a claim's TXT record. Times are epoch milliseconds. */
export interface DomainCheck {
  readonly checkedAt: number;
  readonly result: SvcDomainCheckResult;
  /** Says what was looked up and found; never more than the public record holds. */
  readonly message: string;
}

/**
 * An organization's claim on a domain (one row per organization and domain, reused when the claim is
 * started again). Times are epoch milliseconds.
 */
export interface DomainClaimRecord {
  readonly id: string;
  readonly organizationId: string;
  /** Normalized (domain-name.ts): lower case, ASCII. */
  readonly domain: string;
  readonly status: SvcDomainClaimStatus;
  /** The random part of the TXT value; public once published, so stored as it is. */
  readonly verificationValue: string;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly verifiedAt: number | null;
  readonly revokedAt: number | null;
  readonly lastCheck: DomainCheck | null;
  /** Scheduled re-checks of an active claim that found no record, in a row (a success resets it). */
  readonly failedRechecks: number;
  /** When an active claim is checked again (null unless active). */
  readonly nextCheckAt: number | null;
}

/** The columns an update may set. */
export type DomainClaimChanges = Partial<
  Pick<
    DomainClaimRecord,
    | 'status'
    | 'verificationValue'
    | 'updatedAt'
    | 'verifiedAt'
    | 'revokedAt'
    | 'lastCheck'
    | 'failedRechecks'
    | 'nextCheckAt'
  >
>;

/**
 * What a conditional update did: `updated`; `stale` when the claim was no longer in the expected status
 * (a concurrent update won); `domain_taken` when it would make a second active claim on the domain.
 */
export type DomainClaimUpdate =
  | { readonly kind: 'updated'; readonly claim: DomainClaimRecord }
  | { readonly kind: 'stale' }
  | { readonly kind: 'domain_taken' };

/** Storage of domain claims. The database keeps at most one active claim per domain. */
export interface DomainClaimRepository {
  /** False when the organization already has a row for the domain (a concurrent start won). */
  insert(record: DomainClaimRecord): Promise<boolean>;
  findById(organizationId: string, id: string): Promise<DomainClaimRecord | undefined>;
  findByDomain(organizationId: string, domain: string): Promise<DomainClaimRecord | undefined>;
  /** The one active claim on the domain, of any organization. */
  findActive(domain: string): Promise<DomainClaimRecord | undefined>;
  /** The organization's claims, newest first. */
  listByOrganization(organizationId: string, page: PageQuery): Promise<Page<DomainClaimRecord>>;
  /** Sets `changes` on the claim if it still has status `expected`. */
  update(id: string, expected: SvcDomainClaimStatus, changes: DomainClaimChanges): Promise<DomainClaimUpdate>;
  /**
   * Takes up to `limit` active claims due for a re-check at `now`, oldest due first, moving each one's
   * next check to `nextCheckAt` in the same conditional statement: a claim is taken by one node only.
   */
  takeDue(now: number, limit: number, nextCheckAt: number): Promise<DomainClaimRecord[]>;
}
