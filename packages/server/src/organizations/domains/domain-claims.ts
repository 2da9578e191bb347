import type { Page, PageQuery, SvcDomainClaim } from '@svc/contract';
import { actorFields, type AdminActor } from '../../audit/actor.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import { SvcConflictError, SvcNotFoundError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import type { DomainVerificationConfig } from './domain-verification-config.js';
import { claimableDomainOrUndefined, parseClaimableDomain } from './domain-name.js';
import { ownershipRecord, readOwnershipAnswer } from './ownership-record.js';
import type {
  DomainCheck,
  DomainClaimChanges,
  DomainClaimRecord,
  DomainClaimRepository,
} from './repository.js';
import type { TxtLookup } from './txt-lookup.js';
import { toSvcDomainClaim } from './views.js';

export interface DomainClaimsDeps {
  readonly repository: DomainClaimRepository;
  readonly lookupTxt: TxtLookup;
  readonly settings: DomainVerificationConfig;
  readonly organizationExists: (organizationId: string) => Promise<boolean>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Which organization owns a domain, for home-realm discovery and linking by e-mail address. */
export interface ActiveDomainClaim {
  readonly organizationId: string;
  readonly claimId: string;
}

/** A claim is read again this many times when concurrent writes keep moving it. */
const MAX_ATTEMPTS = 3;

const takenByAnother = () =>
  new SvcConflictError('The domain is claimed by another organization; that claim must be revoked first.');

/**
 * An organization's claims on domains, proven by a DNS TXT record (docs/reference/organizations.md "Domain
 * claims"). Transitions:
 *
 *   (none) | revoked  --start-->    pending_ownership   (a fresh random value each time it begins)
 *   pending_ownership --confirm-->  active              (the expected TXT value is published)
 *   pending_ownership --confirm-->  pending_ownership   (not found: `lastCheck` says why)
 *   pending_ownership | active --revoke--> revoked
 *   active --scheduled re-checks that find no record--> revoked   (domain-claim-rechecks.ts)
 *
 * One organization has one claim row per domain; the database holds at most one active claim per domain,
 * so a domain active for another organization is a 409 until that claim is revoked. Audited as
 * `admin.domain_claim.started`, `.verified` and `.revoked`.
 */
export class DomainClaims {
  readonly #deps: DomainClaimsDeps;

  constructor(deps: DomainClaimsDeps) {
    this.#deps = deps;
  }

  /**
   * StartVerification: a pending claim on the domain with the record to publish, created or reused. A
   * pending or active claim of the organization is returned as it is; a revoked one begins again with a
   * new value, so a record left behind in DNS proves nothing.
   */
  async start(organizationId: string, domainInput: string, actor?: AdminActor): Promise<SvcDomainClaim> {
    const domain = parseClaimableDomain(domainInput);
    await this.#requireOrganization(organizationId);
    const { repository } = this.#deps;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const active = await repository.findActive(domain);
      if (active !== undefined && active.organizationId !== organizationId) throw takenByAnother();
      const existing = await repository.findByDomain(organizationId, domain);
      if (existing !== undefined && existing.status !== 'revoked') {
        return this.#view(existing);
      }
      const begun =
        existing === undefined ? await this.#insert(organizationId, domain) : await this.#restart(existing);
      if (begun === undefined) continue; // a concurrent start or revocation moved it: read again
      await this.#audit('started', begun, actor);
      return this.#view(begun);
    }
    throw new SvcConflictError('The claim changed while it was being started; try again.');
  }

  /**
   * ConfirmOwnership: looks the record up now. Found: a pending claim becomes active (409 when another
   * organization's claim became active first). Not found: the claim stays as it is, with `lastCheck`
   * saying why; an active claim is revoked only by the scheduled re-checks, never by one look-up here.
   */
  async confirm(organizationId: string, claimId: string, actor?: AdminActor): Promise<SvcDomainClaim> {
    const claim = await this.#get(organizationId, claimId);
    if (claim.status === 'revoked') {
      throw new SvcConflictError('The claim was revoked; start the verification of the domain again.');
    }
    const check = await this.#check(claim);
    const now = check.checkedAt;
    const verified = check.result === 'verified';
    const activates = verified && claim.status === 'pending_ownership';
    const changes: DomainClaimChanges = {
      lastCheck: check,
      updatedAt: now,
      // Found: the next scheduled re-check is a full interval away, with no failure counted.
      ...(verified ? { failedRechecks: 0, nextCheckAt: now + this.#deps.settings.recheckIntervalMs } : {}),
      ...(activates ? { status: 'active', verifiedAt: now } : {}),
    };
    const update = await this.#deps.repository.update(claim.id, claim.status, changes);
    // The record was found, but another organization's claim on the domain became active first.
    if (update.kind === 'domain_taken') throw takenByAnother();
    if (update.kind === 'stale') return this.#view(await this.#get(organizationId, claimId));
    if (activates) await this.#audit('verified', update.claim, actor);
    return this.#view(update.claim);
  }

  /** Ends a pending or active claim (idempotent: a revoked claim is answered as it is). */
  async revoke(organizationId: string, claimId: string, actor?: AdminActor): Promise<SvcDomainClaim> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const claim = await this.#get(organizationId, claimId);
      if (claim.status === 'revoked') return this.#view(claim);
      const now = this.#deps.clock.now();
      const update = await this.#deps.repository.update(claim.id, claim.status, {
        status: 'revoked',
        revokedAt: now,
        nextCheckAt: null,
        updatedAt: now,
      });
      if (update.kind !== 'updated') continue;
      await this.#audit('revoked', update.claim, actor, { reason: 'operator' });
      return this.#view(update.claim);
    }
    throw new SvcConflictError('The claim changed while it was being revoked; try again.');
  }

  /** One of the organization's claims, in any status (404 for an unknown claim). */
  async get(organizationId: string, claimId: string): Promise<SvcDomainClaim> {
    return this.#view(await this.#get(organizationId, claimId));
  }

  /** The organization's claims, newest first (404 for an unknown organization). */
  async list(organizationId: string, page: PageQuery): Promise<Page<SvcDomainClaim>> {
    await this.#requireOrganization(organizationId);
    const found = await this.#deps.repository.listByOrganization(organizationId, page);
    return { data: found.data.map((claim) => this.#view(claim)), nextCursor: found.nextCursor };
  }

  /**
   * The organization whose claim on exactly this domain is active; undefined for any other name
   * (unclaimed, pending, revoked, or not a claimable domain). The domain is normalized as claims are, so
   * the domain part of an e-mail address can be passed as typed.
   */
  async activeClaimOf(domain: string): Promise<ActiveDomainClaim | undefined> {
    const normalized = claimableDomainOrUndefined(domain);
    if (normalized === undefined) return undefined;
    const claim = await this.#deps.repository.findActive(normalized);
    return claim === undefined ? undefined : { organizationId: claim.organizationId, claimId: claim.id };
  }

  /** Looks the claim's record up now and reads the answer. */
  async #check(claim: DomainClaimRecord): Promise<DomainCheck> {
    const { settings, lookupTxt, clock } = this.#deps;
    const expected = ownershipRecord(settings, claim);
    const answer = await lookupTxt(expected.name);
    return readOwnershipAnswer(expected, answer, settings.valuePrefix, clock.now());
  }

  async #insert(organizationId: string, domain: string): Promise<DomainClaimRecord | undefined> {
    const { ids, clock, repository } = this.#deps;
    const now = clock.now();
    const record: DomainClaimRecord = {
      id: ids.id('dom'),
      organizationId,
      domain,
      status: 'pending_ownership',
      verificationValue: ids.secret(),
      createdAt: now,
      updatedAt: now,
      verifiedAt: null,
      revokedAt: null,
      lastCheck: null,
      failedRechecks: 0,
      nextCheckAt: null,
    };
    return (await repository.insert(record)) ? record : undefined;
  }

  async #restart(revoked: DomainClaimRecord): Promise<DomainClaimRecord | undefined> {
    const now = this.#deps.clock.now();
    const update = await this.#deps.repository.update(revoked.id, 'revoked', {
      status: 'pending_ownership',
      verificationValue: this.#deps.ids.secret(),
      verifiedAt: null,
      revokedAt: null,
      lastCheck: null,
      failedRechecks: 0,
      nextCheckAt: null,
      updatedAt: now,
    });
    return update.kind === 'updated' ? update.claim : undefined;
  }

  async #get(organizationId: string, claimId: string): Promise<DomainClaimRecord> {
    const claim = await this.#deps.repository.findById(organizationId, claimId);
    if (claim === undefined) {
      throw new SvcNotFoundError(`Organization '${organizationId}' has no domain claim '${claimId}'.`);
    }
    return claim;
  }

  async #requireOrganization(organizationId: string): Promise<void> {
    if (!(await this.#deps.organizationExists(organizationId))) {
      throw new SvcNotFoundError(`Organization '${organizationId}' was not found.`);
    }
  }

  #view(claim: DomainClaimRecord): SvcDomainClaim {
    return toSvcDomainClaim(this.#deps.settings, claim);
  }

  async #audit(
    what: 'started' | 'verified' | 'revoked',
    claim: DomainClaimRecord,
    actor: AdminActor | undefined,
    data: Readonly<Record<string, unknown>> = {},
  ): Promise<void> {
    await this.#deps.audit.record({
      kind: `admin.domain_claim.${what}`,
      ...actorFields(actor),
      organizationId: claim.organizationId,
      data: { claimId: claim.id, domain: claim.domain, ...data },
    });
  }
}
