import type { SvcMfaAuthenticator, SvcMfaStatus, SvcTotpEnrollmentStartResult } from '@svc/contract';
import { toIso } from '../../../kernel/clock.js';
import { safeEqual, sha256Hex } from '../../../kernel/crypto.js';
import { SvcInvalidOperationError, SvcNotFoundError } from '../../../kernel/errors.js';
import type { TokenLookUp } from '../../../ratelimit/handed-out-tokens.js';
import type { SignedInIdentity } from '../../signed-in-identity.js';
import {
  MFA_MAX_ATTEMPTS,
  sealSecret,
  TOTP_ENROLLMENT_LIFETIME_MS,
  unsealSecret,
  type MfaServiceDeps,
} from './deps.js';
import { identityOf, type MfaChallenges } from './mfa-challenges.js';
import { invalidCode, invalidEnrollment, invalidMfaToken } from './mfa-errors.js';
import { beginMfaCheck, type MfaCheckContext } from './mfa-throttle.js';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import type { AuthenticatorRecord, MfaChallengeRecord } from './repository.js';
import { matchTotpStep, newTotpSecret, totpProvisioningUri } from './totp.js';

/** A confirmed enrollment: the authenticator, codes to show once, and (challenge-bound) the identity. */
export interface MfaEnrolled {
  readonly authenticatorId: string;
  readonly recoveryCodes: string[];
  readonly identity: SignedInIdentity | null;
}

/**
 * TOTP enrollment (forced, bound to an MFA challenge whose decision requires it, or self-enrollment of
 * a signed-in user), recovery codes and the user's MFA status. A challenge-bound enrollment stores the
 * hash of its MFA token, so its verify needs the enrollment token, a code and that same MFA token in the
 * same flow; the challenge is consumed with it.
 */
export class TotpEnrollment {
  readonly #deps: MfaServiceDeps;
  readonly #challenges: Pick<MfaChallenges, 'peekChallengeHash'>;

  constructor(deps: MfaServiceDeps, challenges: Pick<MfaChallenges, 'peekChallengeHash'>) {
    this.#deps = deps;
    this.#challenges = challenges;
  }

  /**
   * StartTotpEnrollmentForChallengeAsync: only for a challenge whose persisted decision has
   * EnrollmentRequired=true; the enrollment is bound to that challenge's MFA token.
   */
  async startEnrollmentForChallenge(
    mfaToken: string,
    label: string | null,
    flow: string,
  ): Promise<SvcTotpEnrollmentStartResult> {
    const challenge = await this.#requireEnrollmentChallenge(sha256Hex(mfaToken), flow);
    return this.#startEnrollment(challenge.userId, label, challenge.tokenHash);
  }

  /**
   * The hosted forced enrollment: the authenticator being set up for this challenge (the same secret on
   * every page view until it expires), or a new one. No enrollment token: the hosted request holds the
   * challenge's hash and is bound to its browser.
   */
  async challengeEnrollment(
    challengeHash: string,
    flow: string,
  ): Promise<Omit<SvcTotpEnrollmentStartResult, 'enrollmentToken'>> {
    const challenge = await this.#requireEnrollmentChallenge(challengeHash, flow);
    const now = this.#deps.clock.now();
    const pending = await this.#deps.authenticators.findPendingForChallenge(challengeHash, now);
    if (pending === undefined) {
      const { enrollmentToken: _unused, ...started } = await this.#startEnrollment(
        challenge.userId,
        null,
        challengeHash,
      );
      return started;
    }
    const secret = unsealSecret(this.#deps, pending);
    const provisioningUri = totpProvisioningUri(secret, this.#deps.totpIssuer, pending.label);
    return {
      secret,
      provisioningUri,
      qrCodeDataUrl: await qrCode(provisioningUri),
      expiresAt: toIso(pending.enrollmentExpiresAt ?? now),
    };
  }

  /** Confirms the hosted forced enrollment of this challenge with a code; completes the sign-in. */
  async verifyChallengeEnrollment(
    challengeHash: string,
    code: string,
    context: MfaCheckContext,
  ): Promise<MfaEnrolled> {
    await this.#requireEnrollmentChallenge(challengeHash, context.flow);
    const pending = await this.#deps.authenticators.findPendingForChallenge(
      challengeHash,
      this.#deps.clock.now(),
    );
    if (pending === undefined) throw invalidEnrollment();
    return this.#confirmEnrollment(pending, code, challengeHash, context);
  }

  /** StartTotpEnrollmentAsync: a signed-in user adds an authenticator, when self-enrollment is allowed. */
  async startSelfEnrollment(userId: string, label: string | null): Promise<SvcTotpEnrollmentStartResult> {
    const settings = await this.#deps.settings.getSettings();
    if (!settings.enabled || !settings.totpEnabled || !settings.userSelfEnrollmentEnabled) {
      throw new SvcInvalidOperationError('Setting up an authenticator app is not enabled.');
    }
    return this.#startEnrollment(userId, label, null);
  }

  /**
   * VerifyTotpEnrollmentAsync: the enrollment token, a code of the new authenticator and, for a
   * challenge-bound enrollment, the MFA token it was started with (same user and flow, still active);
   * a self-enrollment must come without one. The first confirmed authenticator brings recovery codes
   * (shown once); a challenge-bound enrollment also completes the sign-in. `lookUp` wraps the look-up of
   * the enrollment token, so that a caller can count the ones that find nothing against the address.
   */
  async verifyEnrollment(
    input: { enrollmentToken: string; code: string; mfaToken: string | null },
    context: MfaCheckContext,
    lookUp: TokenLookUp = (find) => find(),
  ): Promise<MfaEnrolled> {
    const now = this.#deps.clock.now();
    const enrollment = await lookUp(() =>
      this.#deps.authenticators.findEnrollment(sha256Hex(input.enrollmentToken), now),
    );
    if (enrollment === undefined) throw invalidEnrollment();
    if (enrollment.challengeHash === null) {
      if (input.mfaToken !== null) throw invalidEnrollment();
      return this.#confirmEnrollment(enrollment, input.code, null, context);
    }
    if (input.mfaToken === null || !safeEqual(sha256Hex(input.mfaToken), enrollment.challengeHash)) {
      throw invalidEnrollment();
    }
    return this.#confirmEnrollment(enrollment, input.code, enrollment.challengeHash, context);
  }

  /**
   * Confirms an enrollment with a code of its secret. A challenge-bound one needs its challenge active,
   * in this flow, of the same user and still requiring enrollment; the challenge is consumed with it.
   * The code counts under the user's MFA limit like every code check (docs/reference/limits.md
   * "Secret checks": enrollment codes count too).
   */
  async #confirmEnrollment(
    enrollment: AuthenticatorRecord,
    code: string,
    challengeHash: string | null,
    context: MfaCheckContext,
  ): Promise<MfaEnrolled> {
    const { flow } = context;
    const now = this.#deps.clock.now();
    if (challengeHash !== null) {
      const challenge = await this.#challenges.peekChallengeHash(challengeHash, flow);
      if (
        challenge === undefined ||
        challenge.userId !== enrollment.userId ||
        !challenge.enrollmentRequired
      ) {
        throw invalidEnrollment();
      }
    }
    const attempt = await beginMfaCheck(this.#deps, enrollment.userId, context);
    if (!(await this.#deps.authenticators.countEnrollmentAttempt(enrollment.id, now, MFA_MAX_ATTEMPTS))) {
      throw invalidEnrollment();
    }
    const step = matchTotpStep(unsealSecret(this.#deps, enrollment), code, now);
    if (step === null) throw invalidCode();
    await attempt.succeeded();
    let consumed: MfaChallengeRecord | undefined;
    if (challengeHash !== null) {
      consumed = await this.#deps.challenges.consume(challengeHash, now);
      if (consumed === undefined) throw invalidEnrollment();
    }
    if (!(await this.#deps.authenticators.confirm(enrollment.id, step, now))) throw invalidEnrollment();
    const recoveryCodes = await this.#recoveryCodesAfterEnrollment(enrollment.userId, now);
    await this.#deps.audit.record({
      kind: 'mfa.totp.enrolled',
      actorType: 'user',
      actorId: enrollment.userId,
      userId: enrollment.userId,
      ...(consumed === undefined ? {} : { clientId: consumed.clientId }),
      data: { authenticatorId: enrollment.id, challengeBound: consumed !== undefined, flow },
    });
    return {
      authenticatorId: enrollment.id,
      recoveryCodes,
      identity: consumed === undefined ? null : identityOf(consumed),
    };
  }

  async #requireEnrollmentChallenge(challengeHash: string, flow: string): Promise<MfaChallengeRecord> {
    const challenge = await this.#challenges.peekChallengeHash(challengeHash, flow);
    if (challenge === undefined) throw invalidMfaToken();
    if (!challenge.enrollmentRequired) {
      throw new SvcInvalidOperationError(
        'This sign-in does not require enrollment; verify a code of your authenticator app instead.',
      );
    }
    return challenge;
  }

  /** GetMfaStatusAsync. */
  async status(userId: string): Promise<SvcMfaStatus> {
    const [settings, confirmed, unused] = await Promise.all([
      this.#deps.settings.getSettings(),
      this.#deps.authenticators.listConfirmed(userId),
      this.#deps.recoveryCodes.countUnused(userId),
    ]);
    return {
      enabled: settings.enabled && settings.totpEnabled,
      totpEnrolled: confirmed.length > 0,
      recoveryCodesRemaining: unused,
      userSelfEnrollmentEnabled: settings.userSelfEnrollmentEnabled,
    };
  }

  /** ListMfaAuthenticatorsAsync: confirmed authenticators, never their secrets. */
  async listAuthenticators(userId: string): Promise<SvcMfaAuthenticator[]> {
    return (await this.#deps.authenticators.listConfirmed(userId)).map((a) => ({
      id: a.id,
      type: 'totp',
      label: a.label,
      createdAt: toIso(a.createdAt),
      confirmedAt: toIso(a.confirmedAt ?? a.createdAt),
    }));
  }

  /** A new set of recovery codes for a user with a confirmed authenticator; the old ones stop working. */
  async regenerateRecoveryCodes(userId: string): Promise<string[]> {
    if ((await this.#deps.authenticators.listConfirmed(userId)).length === 0) {
      throw new SvcInvalidOperationError('Recovery codes need a confirmed authenticator app first.');
    }
    const codes = await this.#issueRecoveryCodes(userId, this.#deps.clock.now());
    await this.#deps.audit.record({
      kind: 'mfa.recovery_codes.regenerated',
      actorType: 'user',
      actorId: userId,
      userId,
    });
    return codes;
  }

  async #startEnrollment(
    userId: string,
    label: string | null,
    challengeHash: string | null,
  ): Promise<SvcTotpEnrollmentStartResult> {
    const now = this.#deps.clock.now();
    const id = this.#deps.ids.id('mfa');
    const secret = newTotpSecret(this.#deps.ids);
    const enrollmentToken = this.#deps.ids.secret();
    const account = await this.#deps.accountLabel(userId);
    if (account === undefined) throw new SvcNotFoundError('No active user has this id.');
    const accountLabel = label ?? account;
    // One pending enrollment per user: starting again replaces the secret that was shown before.
    await this.#deps.authenticators.deleteUnconfirmed(userId);
    await this.#deps.authenticators.insert({
      id,
      userId,
      kind: 'totp',
      label: accountLabel,
      secretSealed: sealSecret(this.#deps, id, secret),
      enrollmentTokenHash: sha256Hex(enrollmentToken),
      challengeHash,
      enrollmentExpiresAt: now + TOTP_ENROLLMENT_LIFETIME_MS,
      confirmedAt: null,
      lastUsedStep: null,
      enrollmentAttempts: 0,
      createdAt: now,
    });
    const provisioningUri = totpProvisioningUri(secret, this.#deps.totpIssuer, accountLabel);
    return {
      secret,
      provisioningUri,
      qrCodeDataUrl: await qrCode(provisioningUri),
      enrollmentToken,
      expiresAt: toIso(now + TOTP_ENROLLMENT_LIFETIME_MS),
    };
  }

  async #recoveryCodesAfterEnrollment(userId: string, now: number): Promise<string[]> {
    const settings = await this.#deps.settings.getSettings();
    if (!settings.recoveryCodesEnabled || !settings.availableFactors.includes('recovery_code')) return [];
    if ((await this.#deps.recoveryCodes.countUnused(userId)) > 0) return [];
    return this.#issueRecoveryCodes(userId, now);
  }

  async #issueRecoveryCodes(userId: string, now: number): Promise<string[]> {
    const codes = newRecoveryCodes(this.#deps.ids);
    await this.#deps.recoveryCodes.replace(userId, codes.map(recoveryCodeHash), now, () =>
      this.#deps.ids.id('mrc'),
    );
    return codes;
  }
}

/** The provisioning URI as a PNG data URL for the page to show (the library loaded at the first). */
async function qrCode(provisioningUri: string): Promise<string> {
  const { default: QRCode } = await import('qrcode');
  return QRCode.toDataURL(provisioningUri, { errorCorrectionLevel: 'M', margin: 1 });
}
