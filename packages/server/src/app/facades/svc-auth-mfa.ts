import type {
  SvcChallengeTotpEnrollmentStartRequest,
  SvcMfaAuthenticator,
  SvcMfaChallengeVerifyRequest,
  SvcMfaChallengeVerifyResult,
  SvcMfaStatus,
  SvcTotpEnrollmentStartRequest,
  SvcTotpEnrollmentStartResult,
  SvcTotpEnrollmentVerifyRequest,
  SvcTotpEnrollmentVerifyResult,
} from '@svc/contract';
import type { MfaOperations } from '../../signin/methods/mfa/mfa-operations.js';
import type { SvcAuthCallContext } from './svc-auth-call-context.js';

/**
 * The MFA operations of SvcAuthService (docs/reference/sign-in.md "Multi-factor authentication"): the
 * challenge of a sign-in, TOTP enrollment (bound to a challenge or by a signed-in user), the user's
 * status, authenticators and recovery codes.
 */
export class SvcAuthMfa {
  readonly #mfa: MfaOperations;

  /** `mfa` does the validation, the checks and the audit. */
  constructor(mfa: MfaOperations) {
    this.#mfa = mfa;
  }

  /**
   * VerifyMfaChallengeAsync: a code of the user's authenticator app or a recovery code for the MFA token
   * of an mfa state; completes the sign-in with tokens. Every wrong code is `invalid_code` (400); an
   * unknown, used or expired token (or five wrong codes) `invalid_token`.
   */
  verifyMfaChallengeAsync(
    request: SvcMfaChallengeVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcMfaChallengeVerifyResult> {
    return this.#mfa.verifyMfaChallenge(request, context);
  }

  /** StartTotpEnrollmentForChallengeAsync: only for an mfa_enrollment state (its MFA token). */
  startTotpEnrollmentForChallengeAsync(
    request: SvcChallengeTotpEnrollmentStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTotpEnrollmentStartResult> {
    return this.#mfa.startTotpEnrollmentForChallenge(request, context);
  }

  /** StartTotpEnrollmentAsync: account self-enrollment of a signed-in user (the host vouches for userId). */
  startTotpEnrollmentAsync(
    userId: string,
    request?: SvcTotpEnrollmentStartRequest,
  ): Promise<SvcTotpEnrollmentStartResult> {
    return this.#mfa.startTotpEnrollment(userId, request);
  }

  /**
   * VerifyTotpEnrollmentAsync: enrollment token + code, plus the MFA token for challenge-bound
   * enrollment (then `tokens` completes the login); recovery codes are returned once.
   */
  verifyTotpEnrollmentAsync(
    request: SvcTotpEnrollmentVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTotpEnrollmentVerifyResult> {
    return this.#mfa.verifyTotpEnrollment(request, context);
  }

  /** GetMfaStatusAsync. */
  getMfaStatusAsync(userId: string): Promise<SvcMfaStatus> {
    return this.#mfa.getMfaStatus(userId);
  }

  /** ListMfaAuthenticatorsAsync: confirmed authenticators (never their secrets). */
  listMfaAuthenticatorsAsync(userId: string): Promise<SvcMfaAuthenticator[]> {
    return this.#mfa.listMfaAuthenticators(userId);
  }

  /** A fresh set of recovery codes (shown once); the previous ones stop working. */
  regenerateRecoveryCodesAsync(userId: string): Promise<string[]> {
    return this.#mfa.regenerateRecoveryCodes(userId);
  }
}
