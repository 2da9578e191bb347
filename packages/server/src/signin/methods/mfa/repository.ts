import type { SvcMfaSettings, SvcOrganizationMfaPolicy } from '@svc/contract';
import type { ResumeData } from '../../repository.js';

/** The storage the MFA capability owns, implemented in storage/repositories/mfa.ts. Times are epoch ms. */

export interface MfaPolicyStore {
  getSettings(): Promise<SvcMfaSettings | undefined>;
  saveSettings(settings: SvcMfaSettings, now: number): Promise<void>;
  getOrganizationPolicy(organizationId: string): Promise<SvcOrganizationMfaPolicy | undefined>;
  saveOrganizationPolicy(
    organizationId: string,
    policy: SvcOrganizationMfaPolicy,
    now: number,
  ): Promise<void>;
}

export interface AuthenticatorRecord {
  readonly id: string;
  readonly userId: string;
  readonly kind: 'totp';
  readonly label: string;
  readonly secretSealed: string;
  readonly enrollmentTokenHash: string | null;
  /** SHA-256 of the MFA token of a challenge-bound enrollment; null for self-enrollment. */
  readonly challengeHash: string | null;
  readonly enrollmentExpiresAt: number | null;
  readonly confirmedAt: number | null;
  readonly lastUsedStep: number | null;
  readonly enrollmentAttempts: number;
  readonly createdAt: number;
}

export interface AuthenticatorStore {
  insert(record: AuthenticatorRecord): Promise<void>;
  /** Confirmed authenticators of the user, oldest first. */
  listConfirmed(userId: string): Promise<AuthenticatorRecord[]>;
  /** The unconfirmed, unexpired enrollment with this token hash. */
  findEnrollment(enrollmentTokenHash: string, now: number): Promise<AuthenticatorRecord | undefined>;
  /**
   * Counts one attempt at confirming the enrollment while it is unconfirmed, unexpired and below
   * `maxAttempts`; false when no attempt may be made.
   */
  countEnrollmentAttempt(id: string, now: number, maxAttempts: number): Promise<boolean>;
  /** The unconfirmed, unexpired enrollment bound to this MFA challenge (hosted forced enrollment). */
  findPendingForChallenge(challengeHash: string, now: number): Promise<AuthenticatorRecord | undefined>;
  /** Confirms the enrollment once (conditional on it being unconfirmed and unexpired). */
  confirm(id: string, step: number, now: number): Promise<boolean>;
  /** Records an accepted code's step, only when it is later than the last one: false for a replay. */
  advanceStep(id: string, step: number): Promise<boolean>;
  /** Deletes the user's unconfirmed enrollments (a new start replaces them). */
  deleteUnconfirmed(userId: string): Promise<void>;
}

export interface RecoveryCodeStore {
  /** Replaces every code of the user with these hashes. */
  replace(userId: string, codeHashes: readonly string[], now: number, ids: () => string): Promise<void>;
  /** Marks the user's unused code with this hash used, once; false when there is none. */
  use(userId: string, codeHash: string, now: number): Promise<boolean>;
  countUnused(userId: string): Promise<number>;
}

/** What a sign-in continues with once its second factor passed. */
export interface MfaChallengeContext {
  readonly amr: readonly string[];
  readonly authTime: number;
  readonly resume: ResumeData | null;
}

export interface MfaChallengeRecord {
  readonly tokenHash: string;
  readonly userId: string;
  readonly clientId: string;
  readonly organizationId: string | null;
  readonly flow: string;
  readonly context: MfaChallengeContext;
  /** The persisted decision: the user has no confirmed factor and must enroll one. */
  readonly enrollmentRequired: boolean;
  readonly methods: readonly string[];
  readonly attempts: number;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly consumedAt: number | null;
}

export interface MfaChallengeStore {
  insert(record: MfaChallengeRecord): Promise<void>;
  /** The unconsumed, unexpired challenge with this hash. */
  findActive(tokenHash: string, now: number): Promise<MfaChallengeRecord | undefined>;
  /**
   * Counts one attempt while the challenge is active and below `maxAttempts`; the challenge with the
   * attempt counted, or undefined when no attempt may be made.
   */
  countAttempt(tokenHash: string, now: number, maxAttempts: number): Promise<MfaChallengeRecord | undefined>;
  /** Single use: the challenge for exactly one caller. */
  consume(tokenHash: string, now: number): Promise<MfaChallengeRecord | undefined>;
}
