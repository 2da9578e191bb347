/**
 * The Svc accounts and memberships SCIM users map to (SPEC.md: a SCIM user is a Svc user with a
 * membership in the connection's organization). A port the app wires over the admin services, so that
 * accounts are created, audited and deprovisioned exactly as by operators.
 */
export interface ScimAccounts {
  /** The id of the account with this address (SPEC.md's normalized email key), if any. */
  findUserIdByEmail(email: string): Promise<string | undefined>;
  /** A new passwordless account; 'taken' when the address is another account's. */
  createUser(input: { readonly displayName: string; readonly email: string }): Promise<string | 'taken'>;
  /** Updates the account's display name and address; 'taken' when the address is another account's. */
  updateUser(
    userId: string,
    changes: { readonly displayName?: string; readonly email?: string },
  ): Promise<'updated' | 'taken'>;
  /** An active membership in the organization (created as `member`, or an existing one reactivated). */
  activateMembership(organizationId: string, userId: string): Promise<void>;
  /**
   * Ends the user's access in that organization only: the membership is deactivated and the user's
   * token sessions in it revoked. Other organizations are untouched.
   */
  endMembership(organizationId: string, userId: string): Promise<void>;
}
