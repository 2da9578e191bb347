import type { UserRecord } from '../../directory/repository.js';
import type { UnverifiedAccountClaim } from '../../directory/unverified-account-claim.js';
import type { AuditLog } from '../../audit/audit-log.js';
import type { Clock } from '../../kernel/clock.js';
import { SvcConflictError } from '../../kernel/errors.js';
import type { Ids } from '../../kernel/ids.js';
import { addressClaimedBy, type ActiveClaimLookup } from '../../organizations/domains/claimed-address.js';
import type { ListedOidcIdentityRecord, OidcIdentityRepository } from './identity-repository.js';

/** What a provider asserted about the user, through the connection's claim mapping. */
export interface ExternalIdentity {
  /** The provider's stable subject (`sub`, GitHub's numeric id). */
  readonly subject: string;
  readonly email: string | null;
  /** True only when the provider asserted the address verified. */
  readonly emailVerified: boolean;
  readonly displayName: string | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly preferredUsername: string | null;
}

/** The connection an identity comes from, as the audit trail names it. */
export interface LinkingConnection {
  readonly id: string;
  /** `oidc`, `google`, `microsoft`, `apple` or `github`. */
  readonly authenticationMethod: string;
  /** Set when the connection belongs to one organization, whose claimed domains alone it then signs in. */
  readonly organizationId: string | null;
}

/** The accounts linking reads and creates (the directory's users, as every signup creates them). */
export interface LinkingAccounts {
  get(id: string): Promise<UserRecord | undefined>;
  findByEmail(email: string): Promise<UserRecord | undefined>;
  /** A 409 SvcConflictError when the address was taken meanwhile. */
  createPasswordless(input: {
    readonly displayName: string;
    readonly email: string | null;
    readonly phoneE164: null;
    readonly customFields: null;
    readonly emailVerified: boolean;
  }): Promise<UserRecord>;
}

export interface AccountLinkingDeps {
  readonly identities: OidcIdentityRepository;
  readonly accounts: LinkingAccounts;
  /** Hands an unverified account to the identity that proves its address. */
  readonly claims: Pick<UnverifiedAccountClaim, 'claim'>;
  /** The organizations' active domain claims, for the connections of an organization. */
  readonly domainClaims: ActiveClaimLookup;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * Who a provider identity signs in as:
 * - `linked`: the identity was linked before (or is linked now to the account its verified address
 *   belongs to); `created`: a new account for a new identity.
 * - `refused`: the linked account is deactivated (`account_inactive`); or the identity is new and its
 *   address belongs to an account but the provider did not assert it verified (`email_not_verified`):
 *   anyone can type any address at some providers, so such an address never reaches an account; or the
 *   identity is new, the connection belongs to an organization, and the address is not within that
 *   organization's active domain claims (`domain_not_claimed`).
 */
export type LinkingOutcome =
  | { readonly kind: 'linked'; readonly user: UserRecord; readonly newLink: boolean }
  | { readonly kind: 'created'; readonly user: UserRecord }
  | { readonly kind: 'refused'; readonly reason: LinkingRefusal };

export type LinkingRefusal = 'account_inactive' | 'email_not_verified' | 'domain_not_claimed';

/** Where a linking happened, for the audit trail. */
export interface LinkingContext {
  readonly ipAddress?: string | undefined;
  readonly clientId?: string | undefined;
  /** An operator acting on the account (the operator routes, `actorId` when known); else the user acts. */
  readonly operator?: { readonly actorId?: string | undefined };
}

/**
 * Links provider identities to accounts (docs/reference/federation.md "Account linking"). An identity
 * is one (connection, subject) pair and belongs to one account for good; a new identity joins an existing
 * account only through an address the provider asserts verified, else it signs up a new account. Joining
 * an account whose own address was never verified claims it first (UnverifiedAccountClaim): whatever its
 * holder set up without proving the address goes. A connection of an organization signs a new identity in
 * (up or to its account) only for an address of that organization's active domain claims.
 */
export class OidcAccountLinking {
  readonly #deps: AccountLinkingDeps;

  constructor(deps: AccountLinkingDeps) {
    this.#deps = deps;
  }

  resolve(
    connection: LinkingConnection,
    identity: ExternalIdentity,
    context: LinkingContext = {},
  ): Promise<LinkingOutcome> {
    return this.#resolve(connection, identity, context, false);
  }

  async #resolve(
    connection: LinkingConnection,
    identity: ExternalIdentity,
    context: LinkingContext,
    again: boolean,
  ): Promise<LinkingOutcome> {
    const linked = await this.#linked(connection, identity);
    if (linked !== undefined) return linked;
    const email = identity.email?.trim() === '' ? null : (identity.email?.trim() ?? null);
    const { organizationId } = connection;
    if (
      organizationId !== null &&
      !(await addressClaimedBy(this.#deps.domainClaims, organizationId, email))
    ) {
      return this.#refused(connection, undefined, context, 'domain_not_claimed');
    }
    const existing = email === null ? undefined : await this.#deps.accounts.findByEmail(email);
    if (existing !== undefined) {
      if (!identity.emailVerified)
        return this.#refused(connection, existing.id, context, 'email_not_verified');
      if (!existing.active) return { kind: 'refused', reason: 'account_inactive' };
      const owned = await this.#deps.claims.claim(existing, {
        proof: 'oidc',
        connectionId: connection.id,
        clientId: context.clientId,
        ipAddress: context.ipAddress,
      });
      return this.#link(connection, identity, owned, context);
    }
    let user: UserRecord;
    try {
      user = await this.#deps.accounts.createPasswordless({
        displayName: displayNameOf(identity, email),
        email,
        phoneE164: null,
        customFields: null,
        emailVerified: identity.emailVerified,
      });
    } catch (error) {
      // The address was taken meanwhile (another sign-in, a signup): decide once more, over that account.
      if (error instanceof SvcConflictError && !again)
        return this.#resolve(connection, identity, context, true);
      throw error;
    }
    const outcome = await this.#link(connection, identity, user, context);
    return outcome.kind === 'linked' ? { kind: 'created', user } : outcome;
  }

  /** The user's linked identities, oldest first, each with its connection's name and provider type. */
  list(userId: string): Promise<ListedOidcIdentityRecord[]> {
    return this.#deps.identities.listForUser(userId);
  }

  /**
   * Removes one of the user's links; false when the user has no such link. Refused (409) when it is the
   * account's last way to sign in: no password, no address and no number to send a code to, no other link.
   */
  async unlink(userId: string, identityId: string, context: LinkingContext = {}): Promise<boolean> {
    const links = await this.#deps.identities.listForUser(userId);
    const link = links.find((candidate) => candidate.id === identityId);
    if (link === undefined) return false;
    const user = await this.#deps.accounts.get(userId);
    if (user !== undefined && links.length === 1 && user.passwordHash === null && user.email === null) {
      throw new SvcConflictError(
        'This is the only way this account signs in. Add a password or an email address first.',
      );
    }
    if (!(await this.#deps.identities.delete(userId, identityId))) return false;
    await this.#deps.audit.record({
      kind: 'oidc.identity.unlinked',
      ...(context.operator === undefined
        ? { actorType: 'user' as const, actorId: userId }
        : {
            actorType: 'operator' as const,
            ...(context.operator.actorId === undefined ? {} : { actorId: context.operator.actorId }),
          }),
      userId,
      ...auditContext(context),
      data: { identityId, connectionId: link.connectionId },
    });
    return true;
  }

  async #linked(
    connection: LinkingConnection,
    identity: ExternalIdentity,
  ): Promise<LinkingOutcome | undefined> {
    const link = await this.#deps.identities.find(connection.id, identity.subject);
    if (link === undefined) return undefined;
    const user = await this.#deps.accounts.get(link.userId);
    if (user?.active !== true) return { kind: 'refused', reason: 'account_inactive' };
    await this.#deps.identities.touch(
      link.id,
      { email: identity.email, emailVerified: identity.emailVerified },
      this.#deps.clock.now(),
    );
    return { kind: 'linked', user, newLink: false };
  }

  async #link(
    connection: LinkingConnection,
    identity: ExternalIdentity,
    user: UserRecord,
    context: LinkingContext,
  ): Promise<LinkingOutcome> {
    const now = this.#deps.clock.now();
    const inserted = await this.#deps.identities.insert({
      id: this.#deps.ids.id('oid'),
      connectionId: connection.id,
      subject: identity.subject,
      userId: user.id,
      email: identity.email,
      emailVerified: identity.emailVerified,
      createdAt: now,
      lastUsedAt: now,
    });
    // A concurrent first sign-in of the same identity linked it: that link decides.
    if (!inserted)
      return (await this.#linked(connection, identity)) ?? { kind: 'refused', reason: 'account_inactive' };
    await this.#record('oidc.identity.linked', connection, user.id, context, {});
    return { kind: 'linked', user, newLink: true };
  }

  async #refused(
    connection: LinkingConnection,
    userId: string | undefined,
    context: LinkingContext,
    reason: 'email_not_verified' | 'domain_not_claimed',
  ): Promise<LinkingOutcome> {
    await this.#record('oidc.identity.link_refused', connection, userId, context, { reason });
    return { kind: 'refused', reason };
  }

  #record(
    kind: string,
    connection: LinkingConnection,
    userId: string | undefined,
    context: LinkingContext,
    data: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    return this.#deps.audit.record({
      kind,
      actorType: 'user',
      ...(userId === undefined ? {} : { actorId: userId, userId }),
      ...auditContext(context),
      data: { connectionId: connection.id, provider: connection.authenticationMethod, ...data },
    });
  }
}

/** Where an event happened, as the audit trail records it (the address and client when known). */
export function auditContext(context: Pick<LinkingContext, 'ipAddress' | 'clientId'>): {
  ipAddress?: string;
  clientId?: string;
} {
  return {
    ...(context.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
    ...(context.clientId === undefined ? {} : { clientId: context.clientId }),
  };
}

/** A new account's name: the provider's display name, else the given and family names, the username or the address. */
function displayNameOf(identity: ExternalIdentity, email: string | null): string {
  const full = [identity.firstName, identity.lastName].filter((part) => part !== null && part.trim() !== '');
  const name =
    identity.displayName?.trim() ||
    full.join(' ').trim() ||
    identity.preferredUsername?.trim() ||
    email ||
    '';
  return name === '' ? 'New user' : name.slice(0, 200);
}
