/** Storage of email OTP challenges and magic links, implemented in storage/repositories/passwordless.ts. */

/** What a signup challenge carries until its code is verified (no password: email OTP signup). */
export interface PendingSignupData {
  readonly displayName: string;
  readonly email: string;
  readonly organizationName: string | null;
  readonly customFields: Readonly<Record<string, unknown>> | null;
}

export interface EmailOtpChallengeRecord {
  readonly challengeHash: string;
  readonly purpose: 'login' | 'signup';
  readonly emailKey: string;
  readonly clientId: string;
  readonly organizationId: string | null;
  /** null for a challenge that can never verify (login for an unknown email). */
  readonly codeHash: string | null;
  readonly attempts: number;
  readonly signupTokenHash: string | null;
  readonly signup: PendingSignupData | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly consumedAt: number | null;
}

export interface MagicLinkRecord {
  readonly tokenHash: string;
  readonly userId: string;
  readonly clientId: string;
  readonly organizationId: string | null;
  /** The hosted authorization request the link continues; null for a link of the direct helpers. */
  readonly authRequestId: string | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly consumedAt: number | null;
}

export interface PasswordlessStore {
  insertChallenge(record: EmailOtpChallengeRecord): Promise<void>;
  /** The challenge stored under this hash, in any state (used, expired or exhausted), or undefined. */
  findChallenge(challengeHash: string): Promise<EmailOtpChallengeRecord | undefined>;
  /**
   * Counts one verification attempt atomically, only while the challenge is unconsumed, unexpired and
   * below `maxAttempts`; returns the challenge with the attempt counted, or undefined when no attempt
   * may be made (unknown, used, expired or exhausted).
   */
  countAttempt(
    challengeHash: string,
    now: number,
    maxAttempts: number,
  ): Promise<EmailOtpChallengeRecord | undefined>;
  /** Single use: true for exactly one caller. */
  consumeChallenge(challengeHash: string, now: number): Promise<boolean>;
  insertMagicLink(record: MagicLinkRecord): Promise<void>;
  /** The unconsumed, unexpired link with this hash. */
  findMagicLink(tokenHash: string, now: number): Promise<MagicLinkRecord | undefined>;
  /** Single use: true for exactly one caller while the link is unexpired. */
  consumeMagicLink(tokenHash: string, now: number): Promise<boolean>;
}
