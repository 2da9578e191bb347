import type { SvcOrganizationOption } from '@svc/contract';
import { sha256Hex } from '../../../kernel/crypto.js';
import { SvcInvalidOperationError, type SvcPublicAuthError } from '../../../kernel/errors.js';
import type { MfaChallengeIssued, MfaGate } from '../../mfa-gate.js';
import type { SignedInIdentity } from '../../signed-in-identity.js';
import {
  AMR_SECOND_FACTOR,
  MFA_CHALLENGE_LIFETIME_MS,
  MFA_MAX_ATTEMPTS,
  unsealSecret,
  type MfaServiceDeps,
} from './deps.js';
import { decideMfa, rolesForSignIn } from './mfa-decision.js';
import { invalidCode, invalidMfaToken } from './mfa-errors.js';
import { beginMfaCheck, type MfaCheckContext } from './mfa-throttle.js';
import { looksLikeRecoveryCode, recoveryCodeHash } from './recovery-codes.js';
import type { MfaChallengeRecord } from './repository.js';
import { matchTotpStep } from './totp.js';

/** A verified second factor: the identity to finish the sign-in with, and how it was proved. */
export interface MfaVerified {
  readonly identity: SignedInIdentity;
  readonly method: 'totp' | 'recovery_code';
  /** Recovery codes left after one was used; null when the app's code was used. */
  readonly remainingRecoveryCodes: number | null;
}

/**
 * The MFA challenge of a sign-in: the engine's gate (the persisted decision behind an MFA token) and the
 * verification of a code of a confirmed authenticator (each time step once) or of an offered recovery
 * code, with five attempts per token and five failures per user in 15 minutes across tokens.
 */
export class MfaChallenges implements MfaGate {
  readonly #deps: MfaServiceDeps;

  constructor(deps: MfaServiceDeps) {
    this.#deps = deps;
  }

  /** MfaGate: the persisted decision of one sign-in, or null when no second factor is needed. */
  async challengeFor(
    identity: SignedInIdentity,
    organizations?: readonly SvcOrganizationOption[],
  ): Promise<MfaChallengeIssued | null> {
    const settings = await this.#deps.settings.getSettings();
    // An authentication that already passed a second factor (a reused issuer session) is not asked again.
    if (!settings.enabled || identity.amr.includes('mfa')) return null;
    const [policy, memberships, confirmed, unused] = await Promise.all([
      identity.organizationId === null
        ? null
        : this.#deps.settings.getOrganizationPolicy(identity.organizationId),
      organizations ?? this.#deps.memberships(identity.userId),
      this.#deps.authenticators.listConfirmed(identity.userId),
      this.#deps.recoveryCodes.countUnused(identity.userId),
    ]);
    const decision = decideMfa({
      settings,
      organizationPolicy: policy,
      roles: rolesForSignIn(memberships, identity.organizationId),
      hasConfirmedAuthenticator: confirmed.length > 0,
      unusedRecoveryCodes: unused,
    });
    if (decision.kind === 'none') return null;
    const now = this.#deps.clock.now();
    const mfaToken = this.#deps.ids.secret();
    const record: MfaChallengeRecord = {
      tokenHash: sha256Hex(mfaToken),
      userId: identity.userId,
      clientId: identity.clientId,
      organizationId: identity.organizationId,
      flow: identity.flow,
      context: { amr: [...identity.amr], authTime: identity.authTime, resume: identity.resume },
      enrollmentRequired: decision.kind === 'enrollment',
      methods: decision.methods,
      attempts: 0,
      createdAt: now,
      expiresAt: now + MFA_CHALLENGE_LIFETIME_MS,
      consumedAt: null,
    };
    await this.#deps.challenges.insert(record);
    return {
      mfaToken,
      expiresAt: record.expiresAt,
      enrollmentRequired: record.enrollmentRequired,
      methods: [...record.methods],
    };
  }

  /** The active challenge behind an MFA token for this flow, without using it. */
  peekChallenge(mfaToken: string, flow: string): Promise<MfaChallengeRecord | undefined> {
    return this.peekChallengeHash(sha256Hex(mfaToken), flow);
  }

  /**
   * The same by the token's hash: the hosted flow keeps only the hash on its authorization request (bound
   * to the browser), so the token itself never has to appear in a page or a URL.
   */
  async peekChallengeHash(tokenHash: string, flow: string): Promise<MfaChallengeRecord | undefined> {
    const challenge = await this.#deps.challenges.findActive(tokenHash, this.#deps.clock.now());
    return challenge?.flow === flow ? challenge : undefined;
  }

  /**
   * VerifyMfaChallengeAsync: a code of a confirmed authenticator (each step once) or, when the decision
   * offered it, an unused recovery code. A challenge that requires enrollment cannot be verified: the
   * user must enroll (docs/reference/sign-in.md "Multi-factor authentication" and the converse).
   */
  verifyChallenge(mfaToken: string, code: string, context: MfaCheckContext): Promise<MfaVerified> {
    return this.verifyChallengeHash(sha256Hex(mfaToken), code, context);
  }

  /**
   * VerifyMfaChallengeAsync by the MFA token's hash (hosted flow). The user's limit comes first: a locked
   * user's check answers 429 and spends none of the token's attempts.
   */
  async verifyChallengeHash(hash: string, code: string, context: MfaCheckContext): Promise<MfaVerified> {
    const { flow } = context;
    const peeked = await this.peekChallengeHash(hash, flow);
    if (peeked === undefined) throw invalidMfaToken();
    if (peeked.enrollmentRequired) {
      throw new SvcInvalidOperationError('This sign-in requires setting up an authenticator app first.');
    }
    const attempt = await beginMfaCheck(this.#deps, peeked.userId, context);
    const now = this.#deps.clock.now();
    const challenge = await this.#deps.challenges.countAttempt(hash, now, MFA_MAX_ATTEMPTS);
    // Five codes were tried (or the challenge ended meanwhile): this sign-in is over, even for the right
    // code, so the answer is the token's, which tells every adapter to start again.
    if (challenge === undefined) throw await this.#failure(peeked, 'attempts_exhausted', invalidMfaToken());
    const method = await this.#checkSecondFactor(challenge, code, now);
    if (method === null) throw await this.#failure(challenge, 'wrong_code', invalidCode());
    await attempt.succeeded();
    const consumed = await this.#deps.challenges.consume(hash, now);
    if (consumed === undefined) throw invalidMfaToken();
    const remaining =
      method === 'recovery_code' ? await this.#deps.recoveryCodes.countUnused(challenge.userId) : null;
    await this.#deps.audit.record({
      kind: 'mfa.challenge.verified',
      actorType: 'user',
      actorId: challenge.userId,
      userId: challenge.userId,
      clientId: challenge.clientId,
      ...(challenge.organizationId === null ? {} : { organizationId: challenge.organizationId }),
      data: { method, flow, remainingRecoveryCodes: remaining },
    });
    return { identity: identityOf(consumed), method, remainingRecoveryCodes: remaining };
  }

  /** The factor the code proves, or null: an app code (its step used once) or an offered recovery code. */
  async #checkSecondFactor(
    challenge: MfaChallengeRecord,
    code: string,
    now: number,
  ): Promise<'totp' | 'recovery_code' | null> {
    if (challenge.methods.includes('recovery_code') && looksLikeRecoveryCode(code)) {
      return (await this.#deps.recoveryCodes.use(challenge.userId, recoveryCodeHash(code), now))
        ? 'recovery_code'
        : null;
    }
    for (const authenticator of await this.#deps.authenticators.listConfirmed(challenge.userId)) {
      const step = matchTotpStep(unsealSecret(this.#deps, authenticator), code, now);
      // A step at or before the last accepted one is a replay of a used code.
      if (step !== null && (await this.#deps.authenticators.advanceStep(authenticator.id, step))) {
        return 'totp';
      }
    }
    return null;
  }

  async #failure(
    challenge: MfaChallengeRecord,
    reason: string,
    answer: SvcPublicAuthError,
  ): Promise<SvcPublicAuthError> {
    await this.#deps.audit.record({
      kind: 'mfa.challenge.failed',
      actorType: 'user',
      actorId: challenge.userId,
      userId: challenge.userId,
      clientId: challenge.clientId,
      ...(challenge.organizationId === null ? {} : { organizationId: challenge.organizationId }),
      data: { reason, attempts: challenge.attempts, flow: challenge.flow },
    });
    return answer;
  }
}

/** The identity a consumed challenge continues with: the first factor's methods plus the second's. */
export function identityOf(challenge: MfaChallengeRecord): SignedInIdentity {
  return {
    userId: challenge.userId,
    clientId: challenge.clientId,
    organizationId: challenge.organizationId,
    amr: [...new Set([...challenge.context.amr, ...AMR_SECOND_FACTOR])],
    authTime: challenge.context.authTime,
    flow: challenge.flow,
    resume: challenge.context.resume,
  };
}
