/** The account an address names, as a create decides whether to link it. */
export interface ScimExistingAccount {
  readonly id: string;
  readonly emailVerified: boolean;
}

/** The connection whose organization and own SCIM record an account may be held by. */
export interface ScimAccountScope {
  readonly organizationId: string;
  readonly connectionId: string;
}

/**
 * The Svc accounts and memberships SCIM users map to (docs/reference/scim.md "Users are accounts and
 * memberships": a SCIM user is a Svc account with a membership in the connection's organization). A port the
 * app wires over the admin services, so that accounts are created, audited and deprovisioned exactly as by
 * operators.
 */
export interface ScimAccounts {
  /**
   * The account with this address (its email lookup key, docs/reference/organizations.md "Email identity"),
   * if any.
   */
  findUserByEmail(email: string): Promise<ScimExistingAccount | undefined>;
  /**
   * A new passwordless account; 'taken' when the address is another account's. Its address is verified
   * only when the organization holds an active claim on the address's domain.
   */
  createUser(input: {
    readonly displayName: string;
    readonly email: string;
    readonly organizationId: string;
  }): Promise<string | 'taken'>;
  /** Updates the account's display name and address; 'taken' when the address is another account's. */
  updateUser(
    userId: string,
    changes: { readonly displayName?: string; readonly email?: string },
  ): Promise<'updated' | 'taken'>;
  /**
   * Whether anyone beyond this connection holds the account: another organization, another connection's
   * SCIM record, or the person themselves (a credential, identity or session of their own;
   * directory/account-ties-repository.ts).
   */
  heldByOthers(userId: string, scope: ScimAccountScope): Promise<boolean>;
  /**
   * Claims the unverified account of `email` for the connection's organization when that organization
   * holds an active claim on the address's domain (docs/decisions/scim-tenant-boundary.md): what whoever
   * held the account set up goes, and the address is verified. False, and nothing changes, without
   * such a claim.
   */
  claimUnderDomain(userId: string, email: string, scope: ScimAccountScope): Promise<boolean>;
  /** An active membership in the organization (created as `member`, or an existing one reactivated). */
  activateMembership(organizationId: string, userId: string): Promise<void>;
  /**
   * Ends the user's access in that organization only: the membership is deactivated and the user's
   * token sessions in it revoked. Other organizations are untouched.
   */
  endMembership(organizationId: string, userId: string): Promise<void>;
}
