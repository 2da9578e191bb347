import { ClientLifecycle } from '../directory/client-lifecycle.js';
import { ClientService } from '../directory/client-service.js';
import type { DirectoryDeps, DirectoryLifecycleDeps } from '../directory/deps.js';
import { MembershipLifecycle } from '../directory/membership-lifecycle.js';
import { MembershipService } from '../directory/membership-service.js';
import { OperatorSessions } from '../oauth/tokens/operator-sessions.js';
import { OrganizationLifecycle } from '../directory/organization-lifecycle.js';
import { OrganizationService } from '../directory/organization-service.js';
import { UserLifecycle } from '../directory/user-lifecycle.js';
import { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import { UserMfaAdmin } from '../directory/user-mfa.js';
import { UserService } from '../directory/user-service.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { SecretBox } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import type { SecuritySettingsService } from '../settings/security-settings-service.js';
import type { HashPassword } from '../directory/password-hasher.js';
import { SessionRevocation } from '../oauth/tokens/session-revocation.js';
import { BrowserSessions } from '../signin/browser-sessions.js';
import { ConsentGrants } from '../signin/consent-grants.js';
import { MfaSettingsService } from '../signin/methods/mfa/mfa-settings.js';
import { mfaPolicyRepository } from '../storage/repositories/mfa.js';
import type { Db } from '../storage/database.js';
import { accountClaimRepository } from '../storage/repositories/account-claims.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { browserSessionRepository } from '../storage/repositories/browser-sessions.js';
import { consentGrantRepository } from '../storage/repositories/consent-grants.js';
import { membershipRepository } from '../storage/repositories/memberships.js';
import { operatorSessionStore } from '../storage/repositories/operator-sessions.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import { tokenStore } from '../storage/repositories/token-store.js';
import { userMfaRepository } from '../storage/repositories/user-mfa.js';
import { userRepository } from '../storage/repositories/users.js';
import { SvcAdminDirectory } from './facades/svc-admin-directory.js';
import { SvcAdminDomainClaims } from './facades/svc-admin-domain-claims.js';
import { SvcAdminOidcConnections } from './facades/svc-admin-oidc-connections.js';
import { SvcAdminRecords } from './facades/svc-admin-records.js';
import { SvcAdminScimConnections } from './facades/svc-admin-scim-connections.js';
import { SvcAdminScimMappings } from './facades/svc-admin-scim-mappings.js';
import { SvcAdminScopeDisplayNames } from './facades/svc-admin-scope-display-names.js';
import { svcAdminService, type SvcAdminGroups, type SvcAdminService } from './facades/svc-admin-service.js';
import { SvcAdminSessions } from './facades/svc-admin-sessions.js';
import { SvcAdminSettings } from './facades/svc-admin-settings.js';
import { SvcAdminSsoConnections } from './facades/svc-admin-sso-connections.js';
import { SvcAdminSsoPortal } from './facades/svc-admin-sso-portal.js';
import { SvcAdminUserGrants } from './facades/svc-admin-user-grants.js';
import { wireOidcConnections, type OidcConnectionsWiring } from './wire-oidc-connections.js';
import { wireDomainClaims, type DomainClaimsWiring } from './wire-domain-claims.js';
import type { SvcConfig } from '../config/resolve.js';
import { wireSsoConnections, type SsoConnectionsWiring } from './wire-sso-connections.js';
import { wireScim, type ScimWiring } from './wire-scim.js';
import type { ScimConfig } from '../config/scim.js';
import type { FailureRule } from '../ratelimit/failure-rules.js';
import { wireSsoPortalLinks } from './wire-sso-portal.js';
import { wireFga, type FgaWiring } from './wire-fga.js';
import { wireScimMappings } from './wire-scim-mappings.js';
import { ScopeDisplayNames } from '../oauth/scope-display-names/scope-display-names.js';
import { scopeDisplayNameRepository } from '../storage/repositories/scope-display-names.js';

export interface WireAdminContext {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
  readonly securitySettings: SecuritySettingsService;
  /** How passwords are hashed (config.passwordHashing). */
  readonly hashPassword: HashPassword;
  /** Called after a client is created or changed (discovery caches the union of allowed scopes). */
  readonly onClientsChanged?: () => void;
  /** Seals provider secrets with the master key. */
  readonly secretBox: SecretBox;
  /** Domain claims' record prefixes, re-check schedule and resolvers; the code-owned scope display names. */
  readonly config: Pick<
    SvcConfig,
    'domainVerification' | 'dns' | 'publicOrigin' | 'dashboardBase' | 'scopeDisplayNames' | 'oidc'
  >;
  /** PublicOrigin + auth base (config.issuer): SAML connections' SP entity ids and ACS URLs hang under it. */
  readonly issuer: string;
  /** SCIM: the Base URL and seeds (config.scim), and the limit on rejected tokens. */
  readonly scim: { readonly config: ScimConfig; readonly tokenFailures: FailureRule };
}

/**
 * The admin domain, built once: the SvcAdminService facade, and the services the sign-in engine shares
 * with it (accounts created by signup exactly as by operators; one issuer-session, consent and MFA
 * settings service that operators and sign-in both use).
 */
export interface AdminWiring {
  readonly facade: SvcAdminService;
  /** The groups the facade is made of; each operator route plugin takes the group it calls. */
  readonly groups: SvcAdminGroups;
  readonly users: UserService;
  readonly organizations: OrganizationService;
  readonly memberships: MembershipService;
  readonly browserSessions: BrowserSessions;
  readonly consents: ConsentGrants;
  /** What consent and device approval call each scope (operators' and code-owned entries). */
  readonly scopeDisplayNames: ScopeDisplayNames;
  readonly mfaSettings: MfaSettingsService;
  /** Hands an unverified account to whoever proves its address (every linker's, and password reset's). */
  readonly accountClaims: UnverifiedAccountClaim;
  /** OpenID / social providers: their connections, linked identities and sign-ins in flight. */
  readonly oidc: OidcConnectionsWiring;
  /** Organization domain claims (home-realm discovery reads `claims.activeClaimOf`). */
  readonly domainClaims: DomainClaimsWiring;
  /** SAML SSO connections and Svc as their service provider. */
  readonly sso: SsoConnectionsWiring;
  /** SCIM connections and Svc as their SCIM service provider. */
  readonly scim: ScimWiring;
  /** Fine-grained authorization, built here because the SCIM mapping rules manage grants in it. */
  readonly fga: FgaWiring;
  /** Writes the OIDC and SCIM connections seeded from code, reading secrets by name. */
  seed(readSecret: (name: string) => string | undefined): Promise<void>;
}

/** Builds the admin repositories and services over the database, with the SvcAdminService facade. */
export function wireAdmin(ctx: WireAdminContext): AdminWiring {
  const deps: DirectoryDeps = {
    repositories: {
      organizations: organizationRepository(ctx.db),
      users: userRepository(ctx.db),
      memberships: membershipRepository(ctx.db),
      clients: clientRepository(ctx.db),
    },
    clock: ctx.clock,
    ids: ctx.ids,
    audit: ctx.audit,
  };
  // Stateless over the same rows as the token engine's instance, so a deactivation ends exactly the
  // sessions that refresh and validation read.
  const revocation = new SessionRevocation({ store: tokenStore(ctx.db), clock: ctx.clock });
  const browserSessions = new BrowserSessions({
    store: browserSessionRepository(ctx.db),
    users: deps.repositories.users,
    settings: ctx.securitySettings,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  const lifecycleDeps: DirectoryLifecycleDeps = {
    ...deps,
    sessions: {
      revokeTokenSessions: (selector, reason) => revocation.revokeMatching(selector, reason),
      endBrowserSessions: (userId) => browserSessions.endAllForUser(userId),
    },
  };
  const users = new UserService({ ...deps, hashPassword: ctx.hashPassword });
  const organizations = new OrganizationService(deps);
  const memberships = new MembershipService(deps);
  const mfaSettings = new MfaSettingsService({
    store: mfaPolicyRepository(ctx.db),
    organizationExists: async (id) => (await deps.repositories.organizations.findById(id)) !== undefined,
    audit: ctx.audit,
    clock: ctx.clock,
  });
  const scopeDisplayNames = new ScopeDisplayNames({
    store: scopeDisplayNameRepository(ctx.db),
    codeOwned: ctx.config.scopeDisplayNames,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  const consents = new ConsentGrants({
    store: consentGrantRepository(ctx.db),
    scopeDisplay: scopeDisplayNames,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  const accountClaims = new UnverifiedAccountClaim({
    store: accountClaimRepository(ctx.db),
    sessions: lifecycleDeps.sessions,
    audit: ctx.audit,
    clock: ctx.clock,
  });
  // What every federation part is built over; each is handed its other parts by name.
  const { db, config, audit, clock, ids } = ctx;
  const common = { db, config, audit, clock, ids };
  const domainClaims = wireDomainClaims(common);
  const oidc = wireOidcConnections({
    ...common,
    secretBox: ctx.secretBox,
    users,
    accountClaims,
    domainClaims: domainClaims.claims,
    seeds: ctx.config.oidc.connections,
  });
  const sso = wireSsoConnections({
    ...common,
    issuer: ctx.issuer,
    users,
    memberships,
    accountClaims,
    domainClaims: domainClaims.claims,
  });
  const userLifecycle = new UserLifecycle({ ...lifecycleDeps, hashPassword: ctx.hashPassword });
  const membershipLifecycle = new MembershipLifecycle(lifecycleDeps);
  const scim = wireScim({
    db: ctx.db,
    config: ctx.scim.config,
    tokenFailures: ctx.scim.tokenFailures,
    accounts: {
      users,
      userLifecycle,
      memberships,
      membershipLifecycle,
      membershipRepository: deps.repositories.memberships,
    },
    domainClaims: domainClaims.claims,
    accountClaims,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  const fga = wireFga(common);
  const scimMappings = wireScimMappings({ ...common, fga: fga.admin, scim });
  const clients = new ClientService({ ...deps, onClientsChanged: ctx.onClientsChanged });
  // The operator API, one group of operations per concern, each given only the services it calls.
  const groups: SvcAdminGroups = {
    directory: new SvcAdminDirectory({ organizations, users, memberships, clients }),
    records: new SvcAdminRecords({
      organizations,
      users,
      memberships,
      clients,
      lifecycle: {
        users: userLifecycle,
        organizations: new OrganizationLifecycle(lifecycleDeps),
        memberships: membershipLifecycle,
        clients: new ClientLifecycle({ ...lifecycleDeps, onClientsChanged: ctx.onClientsChanged }),
      },
      userMfa: new UserMfaAdmin({ ...deps, store: userMfaRepository(ctx.db) }),
    }),
    userGrants: new SvcAdminUserGrants({ users, consents, linkedIdentities: oidc.linking }),
    settings: new SvcAdminSettings({ securitySettings: ctx.securitySettings, mfaSettings, audit: ctx.audit }),
    sessions: new SvcAdminSessions({
      operatorSessions: new OperatorSessions({ ...deps, sessions: operatorSessionStore(ctx.db) }),
      clock: ctx.clock,
    }),
    oidcConnections: new SvcAdminOidcConnections(oidc.admin),
    ssoConnections: new SvcAdminSsoConnections({ ssoConnections: sso.admin }),
    ssoPortal: new SvcAdminSsoPortal({ ssoPortalLinks: wireSsoPortalLinks(common), clock: ctx.clock }),
    scimConnections: new SvcAdminScimConnections({
      scimConnections: { admin: scim.admin, boundaries: scim.boundaries, baseUrl: scim.baseUrl },
    }),
    scimMappings: new SvcAdminScimMappings({ scimMappings: scimMappings.admin }),
    domainClaims: new SvcAdminDomainClaims({ domainClaims: domainClaims.claims }),
    scopeDisplayNames: new SvcAdminScopeDisplayNames({ scopeDisplayNames }),
  };
  return {
    facade: svcAdminService(groups),
    groups,
    users,
    organizations,
    memberships,
    browserSessions,
    consents,
    scopeDisplayNames,
    mfaSettings,
    accountClaims,
    oidc,
    domainClaims,
    sso,
    scim,
    fga,
    async seed(readSecret) {
      await oidc.seed(readSecret);
      await scim.seed(readSecret);
    },
  };
}
