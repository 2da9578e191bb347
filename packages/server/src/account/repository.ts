/** What password reset and email verification need from storage (implemented in storage/repositories). */

/** An unused or used one-time account token, by hash. */
export interface AccountTokenRecord {
  readonly tokenHash: string;
  readonly userId: string;
  /** Email verification only: the lookup key of the address the token was sent to. */
  readonly emailKey: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly consumedAt: number | null;
}

export interface AccountTokenStore {
  insert(record: Omit<AccountTokenRecord, 'consumedAt'>): Promise<void>;
  /** Marks every unused token of the user consumed (a newer token replaces them); returns how many. */
  invalidateForUser(userId: string, now: number): Promise<number>;
  /**
   * Uses the token once: one conditional UPDATE (unused and unexpired) so that exactly one caller gets the
   * record; undefined otherwise.
   */
  consume(tokenHash: string, now: number): Promise<AccountTokenRecord | undefined>;
  /**
   * The token while it is unused and unexpired at `now`, read only (a page that shows a form for the token
   * must not use it up: mail scanners and link previews open links too); undefined otherwise.
   */
  findLive(tokenHash: string, now: number): Promise<AccountTokenRecord | undefined>;
}

export interface AccountUserStore {
  /** Replaces the password hash of an active user; false when there is no such active user. */
  setPasswordHash(userId: string, passwordHash: string, now: number): Promise<boolean>;
  /** Marks the email verified when the user is active and its email key still matches; false otherwise. */
  markEmailVerified(userId: string, emailKey: string, now: number): Promise<boolean>;
}

export interface AccountRepositories {
  readonly passwordResetTokens: AccountTokenStore;
  readonly emailVerificationTokens: AccountTokenStore;
  readonly users: AccountUserStore;
}
