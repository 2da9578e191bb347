import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import type { DomainVerificationConfig } from './domain-verification-config.js';
import { ownershipRecord, readOwnershipAnswer } from './ownership-record.js';
import type {
  DomainCheck,
  DomainClaimChanges,
  DomainClaimRecord,
  DomainClaimRepository,
} from './repository.js';
import type { TxtLookup } from './txt-lookup.js';

export interface DomainClaimRechecksDeps {
  readonly repository: DomainClaimRepository;
  readonly lookupTxt: TxtLookup;
  readonly settings: DomainVerificationConfig;
  readonly audit: AuditLog;
  readonly clock: Clock;
}

/** What one run of the re-checks did. */
export interface DomainRecheckReport {
  readonly checked: number;
  readonly revoked: number;
}

/** Claims one housekeeping run checks at most; the rest are due at the next run. */
const BATCH = 100;
/** Look-ups in flight at once, so that one slow name server does not hold up the batch. */
const PARALLEL = 8;

/**
 * The scheduled re-verification of active claims (docs/reference/organizations.md "Daily re-checks"), run by
 * each node's housekeeping. A claim is due `recheckIntervalMs` after its last check and is taken by one node
 * only. The record found resets the count of failed re-checks; no record, or only another value, counts
 * one, and `revokeAfterFailedChecks` of them in a row revoke the claim (3 × 24 h by default: the record
 * has been missing for two days and is still missing). A look-up that got no answer counts nothing: the
 * fault may be the resolver's, not the owner's. Each failure is audited as
 * `admin.domain_claim.recheck_failed`, a revocation as `admin.domain_claim.revoked` (actor `system`).
 */
export class DomainClaimRechecks {
  readonly #deps: DomainClaimRechecksDeps;

  constructor(deps: DomainClaimRechecksDeps) {
    this.#deps = deps;
  }

  async recheckDue(): Promise<DomainRecheckReport> {
    const { repository, clock, settings } = this.#deps;
    const now = clock.now();
    const due = await repository.takeDue(now, BATCH, now + settings.recheckIntervalMs);
    let revoked = 0;
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const claim = due[next++];
        if (claim !== undefined && (await this.#recheck(claim))) revoked++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, due.length) }, worker));
    return { checked: due.length, revoked };
  }

  /** Checks one claim; true when it was revoked. */
  async #recheck(claim: DomainClaimRecord): Promise<boolean> {
    const { settings, lookupTxt, clock, repository } = this.#deps;
    const expected = ownershipRecord(settings, claim);
    const check = readOwnershipAnswer(
      expected,
      await lookupTxt(expected.name),
      settings.valuePrefix,
      clock.now(),
    );
    const counted = check.result === 'record_missing' || check.result === 'value_mismatch';
    const failedRechecks =
      check.result === 'verified' ? 0 : counted ? claim.failedRechecks + 1 : claim.failedRechecks;
    const revoke = failedRechecks >= settings.revokeAfterFailedChecks;
    const changes: DomainClaimChanges = revoke
      ? {
          status: 'revoked',
          revokedAt: check.checkedAt,
          nextCheckAt: null,
          lastCheck: check,
          failedRechecks,
          updatedAt: check.checkedAt,
        }
      : { lastCheck: check, failedRechecks, updatedAt: check.checkedAt };
    // An operator's revocation meanwhile wins: the update then finds the claim no longer active.
    const update = await repository.update(claim.id, 'active', changes);
    if (update.kind !== 'updated' || check.result === 'verified') return false;
    await this.#audit('recheck_failed', claim, check, { failedChecks: failedRechecks, counted });
    if (revoke) await this.#audit('revoked', claim, check, { reason: 'recheck_failed' });
    return revoke;
  }

  async #audit(
    what: 'recheck_failed' | 'revoked',
    claim: DomainClaimRecord,
    check: DomainCheck,
    data: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    await this.#deps.audit.record({
      kind: `admin.domain_claim.${what}`,
      actorType: 'system',
      organizationId: claim.organizationId,
      data: { claimId: claim.id, domain: claim.domain, result: check.result, ...data },
    });
  }
}
