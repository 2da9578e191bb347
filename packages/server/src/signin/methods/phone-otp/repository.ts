/** The purpose of a phone OTP challenge: a login continues a known user, a signup creates one. */
export type PhoneOtpPurpose = 'login' | 'signup';

/** What a signup challenge remembers until the code is verified. */
export interface PhoneOtpSignupData {
  readonly displayName: string;
  readonly organizationName: string | null;
  readonly customFields: Record<string, unknown> | null;
}

/** A stored phone OTP challenge. Only hashes of its tokens exist; the provider holds the code. */
export interface PhoneOtpChallengeRecord {
  readonly id: string;
  readonly purpose: PhoneOtpPurpose;
  readonly phoneE164: string;
  /** The user of a login challenge; null for an unknown number (no SMS was sent) and for signup. */
  readonly userId: string | null;
  readonly clientId: string;
  readonly organizationId: string | null;
  readonly attempts: number;
  readonly signupTokenHash: string | null;
  readonly signupData: PhoneOtpSignupData | null;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly consumedAt: number | null;
}

/** A new challenge, as inserted. */
export type NewPhoneOtpChallenge = Omit<PhoneOtpChallengeRecord, 'attempts' | 'consumedAt'> & {
  readonly challengeHash: string;
};

/** The account a phone number belongs to. */
export interface PhoneAccount {
  readonly userId: string;
  readonly active: boolean;
}

/** Storage of phone OTP challenges and of users' phone numbers (implemented in storage/). */
export interface PhoneOtpRepository {
  insert(challenge: NewPhoneOtpChallenge): Promise<void>;
  findByHash(challengeHash: string): Promise<PhoneOtpChallengeRecord | undefined>;
  /**
   * Counts one verification attempt atomically: true when the challenge was live (not consumed, not
   * expired) and had fewer than `maxAttempts` attempts before this one.
   */
  countAttempt(challengeHash: string, now: number, maxAttempts: number): Promise<boolean>;
  /** Single use: true for exactly one caller while the challenge is live. */
  consume(challengeHash: string, now: number): Promise<boolean>;
  findAccountByPhone(e164: string): Promise<PhoneAccount | undefined>;
  /** Sets (or clears with null) a user's phone number; it starts unverified. */
  setUserPhone(userId: string, e164: string | null, now: number): Promise<void>;
  /** Marks the number verified, only while it is still the user's number. */
  markPhoneVerified(userId: string, e164: string, now: number): Promise<void>;
}
