import type { SvcDomainClaim } from '@svc/contract';
import { toIso } from '../../kernel/clock.js';
import { ownershipRecord, type OwnershipRecordPrefixes } from './ownership-record.js';
import type { DomainClaimRecord } from './repository.js';

/** A claim as the operator API shows it: ISO-8601 UTC times and the record to publish. */
export function toSvcDomainClaim(
  prefixes: OwnershipRecordPrefixes,
  claim: DomainClaimRecord,
): SvcDomainClaim {
  const iso = (at: number | null) => (at === null ? null : toIso(at));
  return {
    id: claim.id,
    organizationId: claim.organizationId,
    domain: claim.domain,
    status: claim.status,
    record: ownershipRecord(prefixes, claim),
    lastCheck:
      claim.lastCheck === null
        ? null
        : {
            checkedAt: toIso(claim.lastCheck.checkedAt),
            result: claim.lastCheck.result,
            message: claim.lastCheck.message,
          },
    verifiedAt: iso(claim.verifiedAt),
    revokedAt: iso(claim.revokedAt),
    createdAt: toIso(claim.createdAt),
  };
}
