/** A TOTP authenticator as an operator sees it: never its secret. Times are epoch milliseconds. */
export interface UserAuthenticator {
  readonly id: string;
  readonly label: string;
  readonly createdAt: number;
  /** Null for an enrollment still in progress. */
  readonly confirmedAt: number | null;
}

/** The second factors an operator reads and resets (storage/repositories/user-mfa.ts). */
export interface UserMfaStore {
  /**
   * The user's confirmed authenticators and enrollments still in progress at `now`, oldest first, and how
   * many recovery codes are unused.
   */
  factors(
    userId: string,
    now: number,
  ): Promise<{ authenticators: UserAuthenticator[]; recoveryCodesRemaining: number }>;
  /**
   * Deletes every authenticator of the user (confirmed or enrolling) and every recovery code, in one
   * transaction; answers how many of each went.
   */
  reset(userId: string): Promise<{ authenticators: number; recoveryCodes: number }>;
}
