import type { MembershipLifecycle } from '../directory/membership-lifecycle.js';
import type { MembershipService } from '../directory/membership-service.js';
import type { MembershipRepository } from '../directory/repository.js';
import type { UserLifecycle } from '../directory/user-lifecycle.js';
import type { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import type { UserService } from '../directory/user-service.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { ScimConfig } from '../config/scim.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { DomainClaims } from '../organizations/domains/domain-claims.js';
import { FailureThrottle } from '../ratelimit/failure-throttle.js';
import type { FailureRule } from '../ratelimit/failure-rules.js';
import { scimAccountsOverAdmin } from '../scim/admin-accounts.js';
import { ScimBearerAuth } from '../scim/bearer-auth.js';
import { ScimConnectionAdmin } from '../scim/connection-admin.js';
import { applyScimSeeds } from '../scim/connection-seeds.js';
import { ScimDirectoryEvents } from '../scim/directory-events.js';
import type { GrantBoundaryResources } from '../scim/grant-boundary.js';
import { ScimGroups } from '../scim/groups.js';
import { ScimServiceProvider } from '../scim/service-provider.js';
import { ScimSyncEvents } from '../scim/sync-events.js';
import { ScimUsers } from '../scim/users.js';
import type { Db } from '../storage/database.js';
import { accountTieRepository } from '../storage/repositories/account-ties.js';
import { failureCounterRepository } from '../storage/repositories/failure-counters.js';
import { fgaReads } from '../storage/repositories/fga-reads.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import { scimConnectionRepository } from '../storage/repositories/scim-connections.js';
import { scimGroupRepository } from '../storage/repositories/scim-groups.js';
import { scimSyncEventRepository } from '../storage/repositories/scim-sync-events.js';
import { scimUserRepository } from '../storage/repositories/scim-users.js';
import { userRepository } from '../storage/repositories/users.js';

export interface WireScimContext {
  readonly db: Db;
  readonly config: ScimConfig;
  /** Rejected bearer tokens per client address (config.failureLimits.scimTokenIp). */
  readonly tokenFailures: FailureRule;
  readonly accounts: {
    readonly users: UserService;
    readonly userLifecycle: UserLifecycle;
    readonly memberships: MembershipService;
    readonly membershipLifecycle: MembershipLifecycle;
    readonly membershipRepository: MembershipRepository;
  };
  /** Whose domains are proved: a SCIM-created account's address is verified under its organization's claim. */
  readonly domainClaims: Pick<DomainClaims, 'activeClaimOf'>;
  /** Hands an unverified account to the organization whose domain claim covers its address. */
  readonly accountClaims: Pick<UnverifiedAccountClaim, 'claim'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** SCIM 2.0: the operators' connections, the service provider, and the events item subscribers follow. */
export interface ScimWiring {
  readonly admin: ScimConnectionAdmin;
  readonly boundaries: GrantBoundaryResources;
  readonly baseUrl: string;
  readonly serviceProvider: ScimServiceProvider;
  /** Group membership and connection changes, for the group mapping rules to subscribe to. */
  readonly events: ScimDirectoryEvents;
  readonly syncEvents: ScimSyncEvents;
  /** Writes the connections configured in code; `readSecret` reads a `tokenSecretName`. */
  seed(readSecret: (name: string) => string | undefined): Promise<void>;
}

/** Grant boundaries are resources of the FGA tree. */
function fgaGrantBoundaries(db: Db): GrantBoundaryResources {
  const reads = fgaReads(db);
  return { resourceExists: async (id) => (await reads.findResource(id)) !== undefined };
}

export function wireScim(ctx: WireScimContext): ScimWiring {
  const { db, clock, ids } = ctx;
  const connections = scimConnectionRepository(db);
  const users = scimUserRepository(db);
  const groups = scimGroupRepository(db);
  const syncEventRows = scimSyncEventRepository(db);
  const organizations = organizationRepository(db);
  const events = new ScimDirectoryEvents();
  const syncEvents = new ScimSyncEvents({ repository: syncEventRows, clock, ids });
  const admin = new ScimConnectionAdmin({
    repository: connections,
    syncEvents: syncEventRows,
    organizationExists: async (id) => (await organizations.findById(id)) !== undefined,
    events,
    audit: ctx.audit,
    clock,
    ids,
  });
  // Stateless over the same counters as every other node's throttle.
  const throttle = new FailureThrottle({ store: failureCounterRepository(db), clock });
  const serviceProvider = new ScimServiceProvider({
    auth: new ScimBearerAuth({
      connections,
      failures: { throttle, rule: ctx.tokenFailures },
    }),
    users: new ScimUsers({
      users,
      groups,
      accounts: scimAccountsOverAdmin({
        ...ctx.accounts,
        userRows: userRepository(db),
        ties: accountTieRepository(db),
        domainClaims: ctx.domainClaims,
        accountClaims: ctx.accountClaims,
      }),
      events,
      syncEvents,
      clock,
    }),
    groups: new ScimGroups({ groups, users, events, syncEvents, clock, ids }),
    baseUrl: ctx.config.baseUrl,
  });
  return {
    admin,
    boundaries: fgaGrantBoundaries(db),
    baseUrl: ctx.config.baseUrl,
    serviceProvider,
    events,
    syncEvents,
    seed: (readSecret) => applyScimSeeds(admin, ctx.config.connections, readSecret, ids),
  };
}
