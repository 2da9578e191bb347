import {
  domainClaimPathSchema,
  organizationDomainsPathSchema,
  pageQuerySchema,
  startDomainVerificationBodySchema,
  type Page,
  type SvcDomainClaim,
  type SvcDomainClaimRequest,
  type SvcPageRequest,
  type SvcStartDomainVerificationRequest,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import { validate } from '../../kernel/validation.js';
import type { DomainClaims } from '../../organizations/domains/domain-claims.js';

export interface SvcAdminDomainClaimsDeps {
  /** Organization domain claims (normalized, looked up in DNS and audited there). */
  readonly domainClaims: DomainClaims;
}

/**
 * The domain-claim operations of SvcAdminService (docs/reference/organizations.md "Domain claims"). Ids
 * and bodies are
 * validated with the contract schemas of the HTTP routes (400; a domain that cannot be claimed names
 * `domain`); an unknown organization or claim is a 404; a domain another organization owns is a 409.
 */
export class SvcAdminDomainClaims {
  readonly #claims: DomainClaims;

  constructor(deps: SvcAdminDomainClaimsDeps) {
    this.#claims = deps.domainClaims;
  }

  /**
   * StartVerificationAsync: the organization's claim on the domain with the TXT record to publish, pending
   * until ConfirmOwnershipAsync finds it. An existing pending or active claim is returned as it is;
   * otherwise (none yet, or revoked) a claim begins with a new random value.
   */
  async startVerificationAsync(
    request: SvcStartDomainVerificationRequest,
    actor?: AdminActor,
  ): Promise<SvcDomainClaim> {
    const { organizationId } = validate(organizationDomainsPathSchema, request, 'organization id');
    const { domain } = validate(startDomainVerificationBodySchema, request, 'domain claim');
    return this.#claims.start(organizationId, domain, actor);
  }

  /**
   * ConfirmOwnershipAsync: looks the TXT record up now. Found: the claim is active. Not found: the claim
   * is answered still `pending_ownership`, its `lastCheck` saying why (`record_missing`, `value_mismatch`,
   * `dns_error`). A revoked claim is a 409: start the verification again.
   */
  async confirmOwnershipAsync(request: SvcDomainClaimRequest, actor?: AdminActor): Promise<SvcDomainClaim> {
    const { organizationId, id } = validate(domainClaimPathSchema, request, 'domain claim id');
    return this.#claims.confirm(organizationId, id, actor);
  }

  /** One domain claim of the organization, with its record and last check. */
  async getDomainClaimAsync(request: SvcDomainClaimRequest): Promise<SvcDomainClaim> {
    const { organizationId, id } = validate(domainClaimPathSchema, request, 'domain claim id');
    return this.#claims.get(organizationId, id);
  }

  /** The organization's domain claims, newest first, each with its record and last check. */
  async listDomainClaimsAsync(
    organizationId: string,
    request: SvcPageRequest = {},
  ): Promise<Page<SvcDomainClaim>> {
    const page = validate(pageQuerySchema, request, 'page request');
    const path = validate(organizationDomainsPathSchema, { organizationId }, 'organization id');
    return this.#claims.list(path.organizationId, page);
  }

  /** Revokes a pending or active claim (a revoked claim is answered as it is). */
  async revokeDomainClaimAsync(request: SvcDomainClaimRequest, actor?: AdminActor): Promise<SvcDomainClaim> {
    const { organizationId, id } = validate(domainClaimPathSchema, request, 'domain claim id');
    return this.#claims.revoke(organizationId, id, actor);
  }
}
