import type { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import type { AuditLog } from '../audit/audit-log.js';
import { OidcAccountLinking, type LinkingAccounts } from '../federation/oidc/account-linking.js';
import { OidcAppAuthorization } from '../federation/oidc/app-authorization.js';
import { OidcConnectionAdmin } from '../federation/oidc/connection-admin.js';
import { applyOidcSeeds, type OidcConnectionSeed } from '../federation/oidc/connection-seeds.js';
import { OidcConnections } from '../federation/oidc/enabled-connections.js';
import { OidcLoginStates } from '../federation/oidc/login-states.js';
import { OidcSignIn } from '../federation/oidc/oidc-sign-in.js';
import { OidcRelyingParty } from '../federation/oidc/relying-party.js';
import type { SvcConfig } from '../config/resolve.js';
import { providerFetch } from '../outbound/provider-fetch.js';
import { hostLookup } from '../outbound/public-fetch.js';
import type { Clock } from '../kernel/clock.js';
import type { SecretBox } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';
import type { ActiveClaimLookup } from '../organizations/domains/claimed-address.js';
import type { Db } from '../storage/database.js';
import { oidcConnectionRepository } from '../storage/repositories/oidc-connections.js';
import { oidcIdentityRepository } from '../storage/repositories/oidc-identities.js';
import { oidcLoginStateRepository } from '../storage/repositories/oidc-login-states.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import { userRepository } from '../storage/repositories/users.js';
import { DirectProviderSignIn } from '../signin/direct-provider-sign-in.js';
import type { DirectSignIn } from '../signin/direct-sign-in.js';
import type { OrganizationPolicy } from '../signin/organization-policy.js';
import type { HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';

export interface WireOidcConnectionsContext {
  readonly db: Db;
  /** The accounts a provider identity signs in as, or signs up (the admin domain's users). */
  readonly users: LinkingAccounts;
  /** Hands an unverified account to the identity that proves its address. */
  readonly accountClaims: Pick<UnverifiedAccountClaim, 'claim'>;
  /** Which organization holds an active claim on a domain (the connections of an organization). */
  readonly domainClaims: ActiveClaimLookup;
  readonly secretBox: SecretBox;
  /** The connections seeded from code (config.oidc.connections). */
  readonly seeds: readonly OidcConnectionSeed[];
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** OpenID / social provider connections: the operators' service, and the enabled connections sign-in reads. */
export interface OidcConnectionsWiring {
  readonly admin: OidcConnectionAdmin;
  readonly connections: OidcConnections;
  /** Who a provider identity signs in as; the links a user can see and remove. */
  readonly linking: OidcAccountLinking;
  /** Sign-ins through a provider between the redirect and the callback. */
  readonly loginStates: OidcLoginStates;
  /** Writes the seeds at start, their secrets read from code or from the variables they name. */
  seed(readSecret: (name: string) => string | undefined): Promise<void>;
}

export function wireOidcConnections(ctx: WireOidcConnectionsContext): OidcConnectionsWiring {
  const repository = oidcConnectionRepository(ctx.db);
  const organizations = organizationRepository(ctx.db);
  const admin = new OidcConnectionAdmin({
    repository,
    secrets: ctx.secretBox,
    organizationExists: async (id) => (await organizations.findById(id)) !== undefined,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  return {
    admin,
    seed: (readSecret) => applyOidcSeeds(admin, ctx.seeds, readSecret),
    connections: new OidcConnections({ repository, secrets: ctx.secretBox }),
    loginStates: new OidcLoginStates({
      repository: oidcLoginStateRepository(ctx.db),
      secrets: ctx.secretBox,
      clock: ctx.clock,
    }),
    linking: new OidcAccountLinking({
      identities: oidcIdentityRepository(ctx.db),
      accounts: ctx.users,
      claims: ctx.accountClaims,
      domainClaims: ctx.domainClaims,
      audit: ctx.audit,
      clock: ctx.clock,
      ids: ctx.ids,
    }),
  };
}

export interface WireOidcSignInContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'issuer' | 'allowInsecureLoopback' | 'providerFetch' | 'dns'>;
  readonly oidc: OidcConnectionsWiring;
  /** The direct helpers' client gate and sign-in, and the organization policy of the sign-in engine. */
  readonly direct: DirectSignIn;
  readonly organizations: OrganizationPolicy;
  /** The limit on refused handed-out tokens (the providers' callback states). */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Svc as the relying party of its provider connections, and the sign-in through them. */
export interface OidcSignInWiring {
  readonly relyingParty: OidcRelyingParty;
  readonly signIn: OidcSignIn;
  /** The sign-in of first-party apps that keep their own checks (`/oidc/authorization-url`, `/oidc/exchange`). */
  readonly firstParty: DirectProviderSignIn;
}

/**
 * The sign-in through provider connections. Every provider sends the user back to `{issuer}/oidc/callback`
 * (docs/reference/federation.md "The flow"), except for a first-party app's own registered callback. Every
 * request to a provider goes to a public address, one of `providerFetch`'s networks, or loopback (plain
 * http too) only with `allowInsecureLoopback` (docs/decisions/federation-provider-destinations.md).
 */
export function wireOidcSignIn(ctx: WireOidcSignInContext): OidcSignInWiring {
  const { allowInsecureLoopback, providerFetch: destinations, dns } = ctx.config;
  const relyingParty = new OidcRelyingParty({
    clock: ctx.clock,
    ids: ctx.ids,
    allowHttpLoopback: allowInsecureLoopback,
    fetch: providerFetch({ ...destinations, lookup: hostLookup(dns), loopback: allowInsecureLoopback }),
  });
  const signIn = new OidcSignIn({
    connections: ctx.oidc.connections,
    relyingParty,
    states: ctx.oidc.loginStates,
    linking: ctx.oidc.linking,
    tokenChecks: ctx.tokenChecks,
    audit: ctx.audit,
    callbackUri: `${ctx.config.issuer}/oidc/callback`,
  });
  const firstParty = new DirectProviderSignIn({
    direct: ctx.direct,
    authorization: new OidcAppAuthorization({ signIn, relyingParty }),
    organizations: ctx.organizations,
    users: userRepository(ctx.db),
  });
  return { relyingParty, signIn, firstParty };
}
