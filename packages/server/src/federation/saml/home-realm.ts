import type { OrganizationRecord } from '../../directory/repository.js';
import type { ActiveDomainClaim } from '../../organizations/domains/domain-claims.js';
import type { SsoConnectionRecord, SsoConnectionRepository } from './repository.js';

/** An email's SSO realm: the enabled connection of an active organization its users sign in through. */
export interface SsoRealm {
  readonly connectionId: string;
  readonly organizationId: string;
  readonly organizationName: string;
  /** The connection's primary domain, else the organization's. */
  readonly primaryDomain: string | null;
}

/**
 * docs/reference/federation.md "Home-realm discovery": `sso` with the realm, or `password` for every other
 * email.
 */
export type HomeRealm = ({ readonly mode: 'sso' } & SsoRealm) | { readonly mode: 'password' };

export interface HomeRealmDiscoveryDeps {
  readonly connections: Pick<
    SsoConnectionRepository,
    'findEnabledByPrimaryDomain' | 'findEnabledByOrganizationPrimaryDomain' | 'findEnabledForOrganization'
  >;
  readonly domainClaims: { activeClaimOf(domain: string): Promise<ActiveDomainClaim | undefined> };
  readonly organizations: { findById(id: string): Promise<OrganizationRecord | undefined> };
}

/** The domain part of an address, lower case; undefined when it has none. */
export function emailDomain(email: string): string | undefined {
  const at = email.lastIndexOf('@');
  const domain =
    at < 0
      ? ''
      : email
          .slice(at + 1)
          .trim()
          .toLowerCase();
  return domain === '' ? undefined : domain;
}

/**
 * Home-realm discovery (docs/reference/federation.md "Home-realm discovery"): the email's domain belongs to
 * an SSO realm when an organization holds an active (DNS-proven) claim on it and has an enabled connection,
 * or else when an enabled connection names it as its primary domain, or else when it is the primary domain of
 * an organization with an enabled connection (the organization's primary domain is an email domain for
 * home-realm discovery: docs/reference/organizations.md "Records"). The proven claim is asked first: a
 * primary domain is only typed by an operator, so it never takes a claimed domain's users to another
 * organization's IdP (docs/reference/federation.md "Home-realm discovery"). An inactive organization has no
 * realm.
 */
export class HomeRealmDiscovery {
  readonly #deps: HomeRealmDiscoveryDeps;

  constructor(deps: HomeRealmDiscoveryDeps) {
    this.#deps = deps;
  }

  /** DiscoverAsync: where the user of `email` signs in. */
  async discover(email: string): Promise<HomeRealm> {
    const realm = await this.realmOf(email);
    return realm === undefined ? { mode: 'password' } : { mode: 'sso', ...realm };
  }

  /** The email's SSO realm, or undefined when its users sign in with a password (or any other method). */
  async realmOf(email: string): Promise<SsoRealm | undefined> {
    const domain = emailDomain(email);
    if (domain === undefined) return undefined;
    const { connections, domainClaims } = this.#deps;
    const claim = await domainClaims.activeClaimOf(domain);
    const claimed =
      claim === undefined ? undefined : await connections.findEnabledForOrganization(claim.organizationId);
    if (claimed !== undefined) return this.#realm(claimed);
    if (claim !== undefined) return undefined;
    const named =
      (await connections.findEnabledByPrimaryDomain(domain)) ??
      (await connections.findEnabledByOrganizationPrimaryDomain(domain));
    return named === undefined ? undefined : this.#realm(named);
  }

  async #realm(connection: SsoConnectionRecord): Promise<SsoRealm | undefined> {
    const organization = await this.#deps.organizations.findById(connection.organizationId);
    if (organization?.active !== true) return undefined;
    return {
      connectionId: connection.id,
      organizationId: organization.id,
      organizationName: organization.name,
      primaryDomain: connection.primaryDomain ?? organization.primaryDomain,
    };
  }
}
