import type {
  SvcMfaAuthenticator,
  SvcMfaStatus,
  SvcOrganizationOption,
  SvcTotpEnrollmentStartResult,
} from '@svc/contract';
import type { MfaChallengeIssued, MfaGate } from '../../mfa-gate.js';
import type { TokenLookUp } from '../../../ratelimit/handed-out-tokens.js';
import type { SignedInIdentity } from '../../signed-in-identity.js';
import type { MfaServiceDeps } from './deps.js';
import { MfaChallenges, type MfaVerified } from './mfa-challenges.js';
import type { MfaCheckContext } from './mfa-throttle.js';
import type { MfaChallengeRecord } from './repository.js';
import { TotpEnrollment, type MfaEnrolled } from './totp-enrollment.js';

export type { MfaServiceDeps } from './deps.js';
export type { MfaVerified } from './mfa-challenges.js';
export type { MfaCheckContext } from './mfa-throttle.js';
export type { MfaEnrolled } from './totp-enrollment.js';

/**
 * TOTP multi-factor authentication with recovery codes (docs/reference/sign-in.md "Multi-factor authentication", the mfa and mfa_enrollment login
 * states,): one entry point over the challenges (the sign-in engine's gate and code
 * verification) and enrollment. The adapters (direct, hosted, headless) verify a code or run the forced
 * enrollment with the MFA token, or with its hash where the hosted flow keeps only that. Every wrong
 * code is the same `invalid_code`; every unusable token the same `invalid_token`; every code check
 * (challenge or enrollment) counts under the user's limit, and a locked user's is 429 `too_many_attempts`.
 *
 * Proof binding: an MFA token is bound to its user, client, organization, flow and the flow's resume
 * data (the authorization request); a challenge-bound enrollment stores the hash of its MFA token, so
 * enrollment verify needs the enrollment token, a code and that same MFA token, in the same flow.
 */
export class MfaService implements MfaGate {
  readonly #challenges: MfaChallenges;
  readonly #enrollment: TotpEnrollment;

  constructor(deps: MfaServiceDeps) {
    this.#challenges = new MfaChallenges(deps);
    this.#enrollment = new TotpEnrollment(deps, this.#challenges);
  }

  challengeFor(
    identity: SignedInIdentity,
    organizations?: readonly SvcOrganizationOption[],
  ): Promise<MfaChallengeIssued | null> {
    return this.#challenges.challengeFor(identity, organizations);
  }

  peekChallenge(mfaToken: string, flow: string): Promise<MfaChallengeRecord | undefined> {
    return this.#challenges.peekChallenge(mfaToken, flow);
  }

  peekChallengeHash(tokenHash: string, flow: string): Promise<MfaChallengeRecord | undefined> {
    return this.#challenges.peekChallengeHash(tokenHash, flow);
  }

  verifyChallenge(mfaToken: string, code: string, context: MfaCheckContext): Promise<MfaVerified> {
    return this.#challenges.verifyChallenge(mfaToken, code, context);
  }

  verifyChallengeHash(hash: string, code: string, context: MfaCheckContext): Promise<MfaVerified> {
    return this.#challenges.verifyChallengeHash(hash, code, context);
  }

  startEnrollmentForChallenge(
    mfaToken: string,
    label: string | null,
    flow: string,
  ): Promise<SvcTotpEnrollmentStartResult> {
    return this.#enrollment.startEnrollmentForChallenge(mfaToken, label, flow);
  }

  challengeEnrollment(
    challengeHash: string,
    flow: string,
  ): Promise<Omit<SvcTotpEnrollmentStartResult, 'enrollmentToken'>> {
    return this.#enrollment.challengeEnrollment(challengeHash, flow);
  }

  verifyChallengeEnrollment(
    challengeHash: string,
    code: string,
    context: MfaCheckContext,
  ): Promise<MfaEnrolled> {
    return this.#enrollment.verifyChallengeEnrollment(challengeHash, code, context);
  }

  startSelfEnrollment(userId: string, label: string | null): Promise<SvcTotpEnrollmentStartResult> {
    return this.#enrollment.startSelfEnrollment(userId, label);
  }

  verifyEnrollment(
    input: { enrollmentToken: string; code: string; mfaToken: string | null },
    context: MfaCheckContext,
    lookUp?: TokenLookUp,
  ): Promise<MfaEnrolled> {
    return this.#enrollment.verifyEnrollment(input, context, lookUp);
  }

  status(userId: string): Promise<SvcMfaStatus> {
    return this.#enrollment.status(userId);
  }

  listAuthenticators(userId: string): Promise<SvcMfaAuthenticator[]> {
    return this.#enrollment.listAuthenticators(userId);
  }

  regenerateRecoveryCodes(userId: string): Promise<string[]> {
    return this.#enrollment.regenerateRecoveryCodes(userId);
  }
}
