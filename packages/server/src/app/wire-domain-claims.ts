import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { DomainClaimRechecks } from '../organizations/domains/domain-claim-rechecks.js';
import { DomainClaims } from '../organizations/domains/domain-claims.js';
import { dnsTxtLookup } from '../organizations/domains/txt-lookup.js';
import type { Db } from '../storage/database.js';
import { organizationDomainRepository } from '../storage/repositories/organization-domains.js';
import { organizationRepository } from '../storage/repositories/organizations.js';

export interface WireDomainClaimsContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'domainVerification' | 'dns'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Organization domain claims: the operations on them, and housekeeping's re-checks of active ones. */
export interface DomainClaimsWiring {
  readonly claims: DomainClaims;
  readonly rechecks: DomainClaimRechecks;
}

/** Both read the same rows and ask the same resolvers (`SVC_DNS_SERVERS`, or the system's). */
export function wireDomainClaims(ctx: WireDomainClaimsContext): DomainClaimsWiring {
  const repository = organizationDomainRepository(ctx.db);
  const organizations = organizationRepository(ctx.db);
  const lookupTxt = dnsTxtLookup(ctx.config.dns);
  const settings = ctx.config.domainVerification;
  return {
    claims: new DomainClaims({
      repository,
      lookupTxt,
      settings,
      organizationExists: async (id) => (await organizations.findById(id)) !== undefined,
      audit: ctx.audit,
      clock: ctx.clock,
      ids: ctx.ids,
    }),
    rechecks: new DomainClaimRechecks({
      repository,
      lookupTxt,
      settings,
      audit: ctx.audit,
      clock: ctx.clock,
    }),
  };
}
