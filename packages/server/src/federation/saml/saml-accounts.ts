import type { MembershipRecord, OrganizationRecord, UserRecord } from '../../directory/repository.js';
import type { UnverifiedAccountClaim } from '../../directory/unverified-account-claim.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import { SvcConflictError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import { addressClaimedBy, type ActiveClaimLookup } from '../../organizations/domains/claimed-address.js';
import { auditContext, type LinkingAccounts } from '../oidc/account-linking.js';
import { SamlError, type SamlErrorCode } from './errors.js';
import type { SamlSignIn } from './service-provider.js';
import type { SamlIdentityRepository } from './sign-in-repository.js';

/** The role of a membership a SAML sign-in creates. */
export const SAML_MEMBER_ROLE = 'member';

export interface SamlAccountsDeps {
  readonly identities: SamlIdentityRepository;
  /** The admin domain's users, as every signup creates them. */
  readonly accounts: LinkingAccounts;
  readonly memberships: {
    find(organizationId: string, userId: string): Promise<MembershipRecord | undefined>;
    /** Adds an active membership with `role` (the directory's, audited there). */
    add(organizationId: string, userId: string, role: string): Promise<void>;
  };
  readonly organizations: { findById(id: string): Promise<OrganizationRecord | undefined> };
  readonly domainClaims: ActiveClaimLookup;
  /** Hands an unverified account to the answer that binds it under the organization's domain claim. */
  readonly claims: Pick<UnverifiedAccountClaim, 'claim'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Where a sign-in happens, for the audit trail. */
export interface SamlAccountContext {
  readonly ipAddress?: string | undefined;
  readonly clientId?: string | undefined;
}

/**
 * The account an accepted SAML answer signs in as, a member of the connection's organization:
 * `linked` (the identity was linked before, or is bound now to the account of its address) or `created`.
 */
export interface SamlAccount {
  readonly kind: 'linked' | 'created';
  readonly user: UserRecord;
  readonly organizationId: string;
  /** True when this sign-in linked the identity (a first sign-in). */
  readonly newLink: boolean;
}

const REFUSALS: Readonly<Record<string, string>> = {
  organization_inactive: "This organization's single sign-on is not available. Contact your administrator.",
  account_inactive: 'This account is deactivated. Contact your administrator.',
  membership_inactive:
    "Your membership in this organization is deactivated. Ask your organization's administrator to restore it.",
  account_not_provisioned:
    "There is no account for this email address, and this organization's single sign-on does not create " +
    "accounts. Ask your organization's administrator to create your account, then sign in again.",
  domain_not_claimed:
    "This organization's single sign-on creates accounts only for email addresses of the domains it has " +
    "verified, and this address is not one of them. Ask your organization's administrator to verify " +
    'the domain of your email address, then sign in again.',
  account_not_linked:
    'An account with this email address already exists and is not linked to this single sign-on. Sign in ' +
    "the way you usually do, or ask your organization's administrator to verify the email domain and allow " +
    'linking by email address.',
};

/**
 * Who an accepted SAML answer signs in as (docs/reference/federation.md "Who a SAML answer signs in as"). An
 * identity is one (connection, NameID) pair, linked to one account for good, so the account's `sub` is
 * the same on every sign-in. A first sign-in:
 * - binds the existing account of the asserted address only with AutoLinkByEmail and when the
 *   connection's organization holds an active claim on the address's domain (docs/reference/federation.md
 *   "Who a SAML answer signs in as"): an IdP may assert any address, the DNS claim proves the organization
 *   speaks for it; an account whose own address was never verified is claimed first (UnverifiedAccountClaim);
 * - else, with AutoProvisionUsers and no account of that address, creates the account, only under such
 *   a claim (verified: the claim vouches for it), whoever set the connection up (an operator, or a
 *   customer's admin in the setup portal);
 * - else is refused with what to do
 *   (docs/decisions/accounts-linking-unverified-accounts.md).
 * The account then is a member of the organization: a missing membership is added, a deactivated one
 * refuses. A deactivated organization or account refuses. Audited as `saml.user.provisioned`,
 * `saml.identity.linked` and `saml.membership.added`; a refusal is audited where the answer is handed on
 * (assertion-consumer.ts), as every other refusal of the sign-in is.
 */
export class SamlAccounts {
  readonly #deps: SamlAccountsDeps;

  constructor(deps: SamlAccountsDeps) {
    this.#deps = deps;
  }

  /** The account `signIn` signs in as, or a SamlError that says why not and what to do. */
  resolve(signIn: SamlSignIn, context: SamlAccountContext = {}): Promise<SamlAccount> {
    return this.#resolve(signIn, context, false);
  }

  async #resolve(signIn: SamlSignIn, context: SamlAccountContext, again: boolean): Promise<SamlAccount> {
    const { organizationId } = signIn.connection;
    const organization = await this.#deps.organizations.findById(organizationId);
    if (organization?.active !== true) throw refused('organization_inactive');
    const linked = await this.#deps.identities.find(signIn.connection.id, signIn.nameId);
    if (linked !== undefined) {
      const user = await this.#active(linked.userId);
      await this.#deps.identities.touch(linked.id, signIn.email, this.#deps.clock.now());
      return this.#member({ kind: 'linked', user, organizationId, newLink: false }, signIn, context);
    }
    const claimed = await addressClaimedBy(this.#deps.domainClaims, organizationId, signIn.email);
    const existing = await this.#deps.accounts.findByEmail(signIn.email);
    if (existing !== undefined) {
      if (!signIn.connection.autoLinkByEmail || !claimed) throw refused('account_not_linked');
      if (!existing.active) throw refused('account_inactive');
      const owned = await this.#deps.claims.claim(existing, {
        proof: 'saml',
        connectionId: signIn.connection.id,
        organizationId,
        clientId: context.clientId,
        ipAddress: context.ipAddress,
      });
      return this.#link(signIn, owned, 'linked', context);
    }
    if (!signIn.connection.autoProvisionUsers) throw refused('account_not_provisioned');
    if (!claimed) throw refused('domain_not_claimed');
    let user: UserRecord;
    try {
      user = await this.#deps.accounts.createPasswordless({
        displayName: displayNameOf(signIn),
        email: signIn.email,
        phoneE164: null,
        customFields: null,
        emailVerified: true,
      });
    } catch (error) {
      // The address was taken meanwhile (another sign-in, a signup): decide once more, over that account.
      if (error instanceof SvcConflictError && !again) return this.#resolve(signIn, context, true);
      throw error;
    }
    await this.#record('saml.user.provisioned', signIn, user.id, context, {});
    return this.#link(signIn, user, 'created', context);
  }

  async #active(userId: string): Promise<UserRecord> {
    const user = await this.#deps.accounts.get(userId);
    if (user?.active !== true) throw refused('account_inactive');
    return user;
  }

  async #link(
    signIn: SamlSignIn,
    user: UserRecord,
    kind: SamlAccount['kind'],
    context: SamlAccountContext,
  ): Promise<SamlAccount> {
    const now = this.#deps.clock.now();
    const inserted = await this.#deps.identities.insert({
      id: this.#deps.ids.id('sid'),
      connectionId: signIn.connection.id,
      nameId: signIn.nameId,
      userId: user.id,
      email: signIn.email,
      createdAt: now,
      lastUsedAt: now,
    });
    const { organizationId } = signIn.connection;
    if (!inserted) {
      // A concurrent first sign-in of the same identity linked it: that link decides.
      const link = await this.#deps.identities.find(signIn.connection.id, signIn.nameId);
      if (link === undefined) throw refused('account_inactive');
      const winner = await this.#active(link.userId);
      return this.#member({ kind: 'linked', user: winner, organizationId, newLink: false }, signIn, context);
    }
    await this.#record('saml.identity.linked', signIn, user.id, context, {});
    return this.#member({ kind, user, organizationId, newLink: true }, signIn, context);
  }

  /** The account as a member of the organization: added when missing, refused when deactivated. */
  async #member(account: SamlAccount, signIn: SamlSignIn, context: SamlAccountContext): Promise<SamlAccount> {
    const { memberships } = this.#deps;
    const membership = await memberships.find(account.organizationId, account.user.id);
    if (membership === undefined) {
      await memberships.add(account.organizationId, account.user.id, SAML_MEMBER_ROLE);
      await this.#record('saml.membership.added', signIn, account.user.id, context, {});
    } else if (!membership.active) {
      throw refused('membership_inactive');
    }
    return account;
  }

  #record(
    kind: string,
    signIn: SamlSignIn,
    userId: string,
    context: SamlAccountContext,
    data: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    return this.#deps.audit.record({
      kind,
      actorType: 'user',
      actorId: userId,
      userId,
      organizationId: signIn.connection.organizationId,
      ...auditContext(context),
      data: { connectionId: signIn.connection.id, ...data },
    });
  }
}

function refused(code: SamlErrorCode): SamlError {
  return new SamlError(code, REFUSALS[code] ?? 'This sign-in cannot be completed.');
}

/** A new account's name: the asserted display name, else the given and family names, else the address. */
function displayNameOf(signIn: SamlSignIn): string {
  const full = [signIn.firstName, signIn.lastName].filter((part) => part !== null && part.trim() !== '');
  const name = signIn.displayName?.trim() || full.join(' ').trim() || signIn.email;
  return name.slice(0, 200);
}
