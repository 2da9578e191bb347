import {
  svcChallengeTotpEnrollmentStartRequestSchema,
  svcMfaChallengeVerifyRequestSchema,
  svcTotpEnrollmentStartRequestSchema,
  svcTotpEnrollmentVerifyRequestSchema,
  userPathSchema,
  type SvcChallengeTotpEnrollmentStartRequest,
  type SvcMfaAuthenticator,
  type SvcMfaChallengeVerifyRequest,
  type SvcMfaChallengeVerifyResult,
  type SvcMfaStatus,
  type SvcTotpEnrollmentStartRequest,
  type SvcTotpEnrollmentStartResult,
  type SvcTotpEnrollmentVerifyRequest,
  type SvcTotpEnrollmentVerifyResult,
} from '@svc/contract';
import { validate } from '../../kernel/validation.js';
import type { MfaOperations } from '../../signin/methods/mfa/mfa-operations.js';
import type { SvcAuthCallContext } from './svc-auth-call-context.js';

/**
 * The MFA operations of SvcAuthService (docs/reference/sign-in.md "Multi-factor authentication"): the
 * challenge of a sign-in, TOTP enrollment (bound to a challenge or by a signed-in user), the user's
 * status, authenticators and recovery codes. Requests and user ids are validated with the contract
 * schemas (400) before `MfaOperations` runs the checks and the audit.
 */
export class SvcAuthMfa {
  readonly #mfa: MfaOperations;

  /** `mfa` does the checks and the audit. */
  constructor(mfa: MfaOperations) {
    this.#mfa = mfa;
  }

  /**
   * VerifyMfaChallengeAsync: a code of the user's authenticator app or a recovery code for the MFA token
   * of an mfa state; completes the sign-in with tokens. Every wrong code is `invalid_code` (400); an
   * unknown, used or expired token (or five wrong codes) `invalid_token`.
   */
  async verifyMfaChallengeAsync(
    request: SvcMfaChallengeVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcMfaChallengeVerifyResult> {
    const input = validate(svcMfaChallengeVerifyRequestSchema, request, 'MFA challenge verify request');
    return this.#mfa.verifyMfaChallenge(input, context);
  }

  /** StartTotpEnrollmentForChallengeAsync: only for an mfa_enrollment state (its MFA token). */
  async startTotpEnrollmentForChallengeAsync(
    request: SvcChallengeTotpEnrollmentStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTotpEnrollmentStartResult> {
    const input = validate(
      svcChallengeTotpEnrollmentStartRequestSchema,
      request,
      'TOTP enrollment start request',
    );
    return this.#mfa.startTotpEnrollmentForChallenge(input, context);
  }

  /** StartTotpEnrollmentAsync: account self-enrollment of a signed-in user (the host vouches for userId). */
  async startTotpEnrollmentAsync(
    userId: string,
    request: SvcTotpEnrollmentStartRequest = {},
  ): Promise<SvcTotpEnrollmentStartResult> {
    const id = userIdOf(userId);
    const input = validate(svcTotpEnrollmentStartRequestSchema, request, 'TOTP enrollment start request');
    return this.#mfa.startTotpEnrollment(id, input);
  }

  /**
   * VerifyTotpEnrollmentAsync: enrollment token + code, plus the MFA token for challenge-bound
   * enrollment (then `tokens` completes the login); recovery codes are returned once.
   */
  async verifyTotpEnrollmentAsync(
    request: SvcTotpEnrollmentVerifyRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTotpEnrollmentVerifyResult> {
    const input = validate(svcTotpEnrollmentVerifyRequestSchema, request, 'TOTP enrollment verify request');
    return this.#mfa.verifyTotpEnrollment(input, context);
  }

  /** GetMfaStatusAsync. */
  async getMfaStatusAsync(userId: string): Promise<SvcMfaStatus> {
    return this.#mfa.getMfaStatus(userIdOf(userId));
  }

  /** ListMfaAuthenticatorsAsync: confirmed authenticators (never their secrets). */
  async listMfaAuthenticatorsAsync(userId: string): Promise<SvcMfaAuthenticator[]> {
    return this.#mfa.listMfaAuthenticators(userIdOf(userId));
  }

  /** A fresh set of recovery codes (shown once); the previous ones stop working. */
  async regenerateRecoveryCodesAsync(userId: string): Promise<string[]> {
    return this.#mfa.regenerateRecoveryCodes(userIdOf(userId));
  }
}

/** A user id the host passes in, checked before any query sees it (400 naming `userId`). */
function userIdOf(userId: string): string {
  return validate(userPathSchema, { userId }, 'user id').userId;
}
