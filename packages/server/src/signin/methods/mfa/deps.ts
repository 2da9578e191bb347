import type { SvcOrganizationOption } from '@svc/contract';
import type { AuditLog } from '../../../audit/audit-log.js';
import { MINUTE_MS, type Clock } from '../../../kernel/clock.js';
import type { SecretBox } from '../../../kernel/crypto.js';
import type { Ids } from '../../../kernel/ids.js';
import type { FailureLimit } from '../../../ratelimit/failure-throttle.js';
import type { MfaSettingsService } from './mfa-settings.js';
import type {
  AuthenticatorRecord,
  AuthenticatorStore,
  MfaChallengeStore,
  RecoveryCodeStore,
} from './repository.js';

/** An MFA token lives 10 minutes and allows 5 codes (docs/reference/sign-in.md "Multi-factor authentication"). */
export const MFA_CHALLENGE_LIFETIME_MS = 10 * MINUTE_MS;
export const MFA_MAX_ATTEMPTS = 5;
/** An enrollment (secret shown, not yet confirmed) lives 10 minutes and allows 5 codes. */
export const TOTP_ENROLLMENT_LIFETIME_MS = 10 * MINUTE_MS;

/** RFC 8176: `otp` (a one-time code, from the app or a recovery code) and `mfa` (a second factor). */
export const AMR_SECOND_FACTOR = ['otp', 'mfa'] as const;

export interface MfaServiceDeps {
  readonly settings: Pick<MfaSettingsService, 'getSettings' | 'getOrganizationPolicy'>;
  readonly authenticators: AuthenticatorStore;
  readonly recoveryCodes: RecoveryCodeStore;
  readonly challenges: MfaChallengeStore;
  /** The user's active memberships with their roles (OrganizationPolicy.options). */
  memberships(userId: string): Promise<SvcOrganizationOption[]>;
  /**
   * The account label an authenticator app shows by default (the email, else the display name), or
   * undefined when no active user has this id (nobody to enroll).
   */
  accountLabel(userId: string): Promise<string | undefined>;
  readonly secrets: Pick<SecretBox, 'encrypt' | 'decrypt'>;
  /** The issuer name in the authenticator app (the public origin's host). */
  readonly totpIssuer: string;
  /**
   * Failed code checks of a user, counted across challenges and enrollments (docs/reference/limits.md "Secret checks"
   *): a new sign-in must not bring five fresh guesses.
   */
  readonly failures: FailureLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The TOTP secret of an authenticator, unsealed (bound to its id as associated data). */
export function unsealSecret(
  deps: Pick<MfaServiceDeps, 'secrets'>,
  authenticator: AuthenticatorRecord,
): string {
  return deps.secrets.decrypt(authenticator.secretSealed, `mfa:${authenticator.id}`);
}

/** The seal of a new authenticator's secret. */
export function sealSecret(deps: Pick<MfaServiceDeps, 'secrets'>, id: string, secret: string): string {
  return deps.secrets.encrypt(secret, `mfa:${id}`);
}
