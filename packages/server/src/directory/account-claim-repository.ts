/**
 * What claiming an unverified account removed (docs/decisions/accounts-linking-unverified-accounts.md):
 * counts by kind, and whether a password was set. Never a value.
 */
export interface ClaimedAccountRemovals {
  readonly passwordRemoved: boolean;
  readonly oidcIdentities: number;
  readonly samlIdentities: number;
  /** TOTP authenticators, confirmed or still enrolling. */
  readonly authenticators: number;
  readonly recoveryCodes: number;
  /**
   * Sign-ins a credential started and that could still end in tokens: pending organization-selection
   * tokens, MFA challenges, unredeemed authorization codes, authorization requests past the credential
   * (organization selection, MFA, consent, device approval) and approved, unredeemed device grants.
   */
  readonly signInsInFlight: number;
  /** Consents the holder gave to applications, revoked. */
  readonly consentGrants: number;
  /** Calendar connections the holder made, revoked with their tokens. */
  readonly calendarConnections: number;
}

/** The storage of claims (storage/repositories/account-claims.ts). Times are epoch milliseconds. */
export interface AccountClaimStore {
  /**
   * In one transaction, only while the user is active, its email key is `emailKey` and its address is
   * unverified: marks the address verified, removes the password, every linked OIDC and SAML identity,
   * the TOTP authenticators and recovery codes, ends the sign-ins in flight, and revokes the consents
   * and calendar connections given in the account's name. Undefined when the
   * account is no such account (verified meanwhile, its address changed, deactivated, gone): nothing
   * changed then. Sessions are not ended here: the claim ends them through the session services.
   */
  claim(userId: string, emailKey: string, now: number): Promise<ClaimedAccountRemovals | undefined>;
}
