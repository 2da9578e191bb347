import type { AuditLog } from '../audit/audit-log.js';
import type { MembershipService } from '../directory/membership-service.js';
import type { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import type { LinkingAccounts } from '../federation/oidc/account-linking.js';
import { SamlAuthnRequests } from '../federation/saml/authn-requests.js';
import { SsoConnectionAdmin } from '../federation/saml/connection-admin.js';
import { HomeRealmDiscovery } from '../federation/saml/home-realm.js';
import { SamlAccounts } from '../federation/saml/saml-accounts.js';
import { SamlServiceProvider } from '../federation/saml/service-provider.js';
import { SamlSignInHandles } from '../federation/saml/sign-in-handles.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { DomainClaims } from '../organizations/domains/domain-claims.js';
import type { Db } from '../storage/database.js';
import { membershipRepository } from '../storage/repositories/memberships.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import {
  samlAuthnRequestRepository,
  samlUsedAssertionRepository,
} from '../storage/repositories/saml-requests.js';
import { samlIdentityRepository, samlSignInHandleRepository } from '../storage/repositories/saml-sign-ins.js';
import { ssoConnectionRepository } from '../storage/repositories/sso-connections.js';

export interface WireSsoConnectionsContext {
  readonly db: Db;
  /** PublicOrigin + auth base: a new connection's SP entity id and ACS URL hang under it. */
  readonly issuer: string;
  /** The accounts a SAML identity signs in as, or signs up (the admin domain's users). */
  readonly users: LinkingAccounts;
  /** Adds the memberships of SAML sign-ins (the admin domain's, audited there). */
  readonly memberships: Pick<MembershipService, 'create'>;
  /** Which organization holds an active claim on a domain. */
  readonly domainClaims: Pick<DomainClaims, 'activeClaimOf'>;
  /** Hands an unverified account to the answer that binds it. */
  readonly accountClaims: Pick<UnverifiedAccountClaim, 'claim'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * SAML SSO connections: the operators' service, Svc as the service provider of each connection, and
 * what SAML sign-ins are built on (home-realm discovery, the accounts an answer signs in as, the
 * accepted answers waiting for the browser).
 */
export interface SsoConnectionsWiring {
  readonly admin: SsoConnectionAdmin;
  readonly serviceProvider: SamlServiceProvider;
  readonly realms: HomeRealmDiscovery;
  readonly accounts: SamlAccounts;
  readonly handles: SamlSignInHandles;
}

export function wireSsoConnections(ctx: WireSsoConnectionsContext): SsoConnectionsWiring {
  const repository = ssoConnectionRepository(ctx.db);
  const organizations = organizationRepository(ctx.db);
  const memberships = membershipRepository(ctx.db);
  return {
    admin: new SsoConnectionAdmin({
      repository,
      organizationExists: async (id) => (await organizations.findById(id)) !== undefined,
      issuer: ctx.issuer,
      audit: ctx.audit,
      clock: ctx.clock,
      ids: ctx.ids,
    }),
    serviceProvider: new SamlServiceProvider({
      connections: repository,
      requests: new SamlAuthnRequests({ repository: samlAuthnRequestRepository(ctx.db), clock: ctx.clock }),
      usedAssertions: samlUsedAssertionRepository(ctx.db),
      clock: ctx.clock,
      ids: ctx.ids,
    }),
    realms: new HomeRealmDiscovery({
      connections: repository,
      domainClaims: ctx.domainClaims,
      organizations,
    }),
    accounts: new SamlAccounts({
      identities: samlIdentityRepository(ctx.db),
      accounts: ctx.users,
      memberships: {
        find: (organizationId, userId) => memberships.find(organizationId, userId),
        add: async (organizationId, userId, role) => {
          await ctx.memberships.create({ organizationId, userId, role });
        },
      },
      organizations,
      domainClaims: ctx.domainClaims,
      claims: ctx.accountClaims,
      audit: ctx.audit,
      clock: ctx.clock,
      ids: ctx.ids,
    }),
    handles: new SamlSignInHandles({
      repository: samlSignInHandleRepository(ctx.db),
      clock: ctx.clock,
      ids: ctx.ids,
    }),
  };
}
