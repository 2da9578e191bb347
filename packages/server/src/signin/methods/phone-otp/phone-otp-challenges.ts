import type { AuditLog } from '../../../audit/audit-log.js';
import type { Clock } from '../../../kernel/clock.js';
import { sha256Hex } from '../../../kernel/crypto.js';
import type { Ids } from '../../../kernel/ids.js';
import type { FailureLimit } from '../../../ratelimit/failure-throttle.js';
import type { RateLimiter } from '../../../ratelimit/rate-limiter.js';
import { refusedSendOf, SvcSendRefusedError } from '../../../ratelimit/refused-send.js';
import type { RateLimitPolicy } from '../../../ratelimit/rules.js';
import { maskPhoneNumber, normalizePhoneNumber, type PhoneNumberResult } from '../../../sms/phone-number.js';
import { requireSmsConfig, type SmsConfig } from '../../../sms/sms-config.js';
import type { SmsVerificationProvider } from '../../../sms/verify-client.js';
import type {
  PhoneOtpChallengeRecord,
  PhoneOtpPurpose,
  PhoneOtpRepository,
  PhoneOtpSignupData,
} from './repository.js';
import { beginOtpCheck } from '../shared/otp-throttle.js';

/** docs/reference/sign-in.md "Phone codes": 10 minutes, 5 attempts (the provider enforces its own as well). */
export const PHONE_OTP_LIFETIME_MS = 10 * 60_000;
export const PHONE_OTP_MAX_ATTEMPTS = 5;

/** Who asks, for the audit trail and the per-address rate limit. */
export interface PhoneChallengeContext {
  /** The in-process operation or the route (`requestPhoneOtpAsync`, `/svc/auth/login/phone-otp/start`). */
  readonly operation: string;
  readonly ipAddress?: string | null;
}

/** A challenge to start for a number already normalized to E.164. */
export interface PhoneChallengeStart {
  readonly e164: string;
  /** The client the sign-in is for (checked by the caller: first-party gate, or the request's client). */
  readonly clientId: string;
  /** A login's requested organization; null for a hosted login and for every signup. */
  readonly organizationId: string | null;
  /** Null for a login; for a signup the pending account and the hash of its signup token (if any). */
  readonly signup: { readonly data: PhoneOtpSignupData; readonly tokenHash: string | null } | null;
  readonly context: PhoneChallengeContext;
}

/** What a start produced; the same whether or not a text was sent (a refused send throws instead). */
export interface StartedPhoneChallenge {
  /** The secret that names the challenge (returned once; only its hash is stored). */
  readonly challengeToken: string;
  readonly challengeHash: string;
  readonly e164: string;
  readonly maskedPhoneNumber: string;
  readonly expiresAt: number;
  readonly nextAllowedSendAt: number;
}

/** A stored challenge with the hash it was found under. */
export type FoundPhoneChallenge = PhoneOtpChallengeRecord & { readonly challengeHash: string };

/** The result of checking a code: the proved number's challenge (and user, for a login), or why not. */
export type PhoneChallengeCheck =
  | { readonly ok: true; readonly challenge: FoundPhoneChallenge; readonly userId: string | null }
  | { readonly ok: false; readonly reason: string };

export interface PhoneOtpChallengesDeps {
  readonly repository: PhoneOtpRepository;
  readonly provider: SmsVerificationProvider;
  /** The resolved SMS configuration; null when phone sign-in is off. */
  readonly smsConfig: SmsConfig | null;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** config.rateLimits.otpSend. */
  readonly sendPolicy: RateLimitPolicy;
  /** Failed code checks per number, across challenges (config.failureLimits.otpAddress). */
  readonly failures: FailureLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * The phone code primitives that the direct operations (PhoneOtpService) and the hosted pages
 * (PhoneOtpSteps) share: start a challenge (rate limit, enumeration safety, the text through the
 * provider) and check a code against one (attempts, single use, the account still there or still free).
 * Neither checks the client: the direct operations gate on first-party clients, the hosted pages serve
 * the client of their authorization request.
 *
 * Who gets a text: a login only for a number of an active account, a signup only for a number that no
 * account has. Everyone else gets the same answer and a challenge that can never verify (no SMS: a text
 * costs money and would reach someone who did not ask).
 */
export class PhoneOtpChallenges {
  readonly #deps: PhoneOtpChallengesDeps;

  constructor(deps: PhoneOtpChallengesDeps) {
    this.#deps = deps;
  }

  /** Whether the SMS provider is configured (phone sign-in and signup are offered only then). */
  get enabled(): boolean {
    return this.#deps.smsConfig !== null;
  }

  /** The configuration, or the invalid-operation error of docs/reference/sign-in.md "Phone codes" when phone sign-in is off. */
  requireConfig(): SmsConfig {
    return requireSmsConfig(this.#deps.smsConfig);
  }

  /**
   * What the user typed, normalized to E.164 in the configured default region, and refused for a country
   * texts are not sent to (a value, never a throw).
   */
  normalize(phoneNumber: string): PhoneNumberResult {
    const { defaultRegion, countries } = this.requireConfig();
    return normalizePhoneNumber(phoneNumber, defaultRegion, countries);
  }

  /**
   * Starts a login or signup challenge. A send the rate limit refuses stores nothing, never reaches the
   * provider and throws SvcSendRefusedError (when to ask again). Provider failures raise SmsProviderError
   * (an SvcInvalidOperationError, as docs/reference/sign-in.md "Phone codes" says).
   */
  async start(input: PhoneChallengeStart): Promise<StartedPhoneChallenge> {
    this.requireConfig();
    const { clock, ids, repository, audit } = this.#deps;
    const purpose: PhoneOtpPurpose = input.signup === null ? 'login' : 'signup';
    const masked = maskPhoneNumber(input.e164);
    // Counted before the account lookup, so that limits behave the same for every number.
    const decision = await this.#deps.rateLimiter.consume(this.#deps.sendPolicy, {
      identifier: input.e164,
      ip: input.context.ipAddress ?? undefined,
    });
    const refused = refusedSendOf(decision);
    if (refused !== undefined) {
      await audit.record({
        kind: 'auth.phone_otp.rate_limited',
        actorType: 'client',
        actorId: input.clientId,
        clientId: input.clientId,
        ...(input.context.ipAddress == null ? {} : { ipAddress: input.context.ipAddress }),
        data: {
          phone: masked,
          purpose,
          operation: input.context.operation,
          refusedBy: decision.refusedBy ?? null,
        },
      });
      throw new SvcSendRefusedError(refused);
    }
    const account = await repository.findAccountByPhone(input.e164);
    const loginUser = purpose === 'login' && account?.active === true ? account.userId : null;
    const textable = purpose === 'login' ? loginUser !== null : account === undefined;
    const now = clock.now();
    const challengeToken = ids.secret();
    const challengeHash = sha256Hex(challengeToken);
    await repository.insert({
      id: ids.id('poc'),
      challengeHash,
      purpose,
      phoneE164: input.e164,
      userId: loginUser,
      clientId: input.clientId,
      organizationId: input.organizationId,
      signupTokenHash: input.signup?.tokenHash ?? null,
      signupData: input.signup?.data ?? null,
      createdAt: now,
      expiresAt: now + PHONE_OTP_LIFETIME_MS,
    });

    const event = {
      actorType: 'client' as const,
      actorId: input.clientId,
      clientId: input.clientId,
      ...(loginUser === null ? {} : { userId: loginUser }),
      ...(input.context.ipAddress == null ? {} : { ipAddress: input.context.ipAddress }),
    };
    const data = { phone: masked, purpose, operation: input.context.operation };
    if (!textable) {
      await audit.record({
        ...event,
        kind: purpose === 'login' ? 'auth.phone_otp.unknown_number' : 'auth.phone_otp.number_taken',
        data,
      });
    } else {
      const started = await this.#deps.provider.startVerification(input.e164);
      await audit.record({
        ...event,
        kind: 'auth.phone_otp.sent',
        data: { ...data, providerStatus: started.status },
      });
    }
    return {
      challengeToken,
      challengeHash,
      e164: input.e164,
      maskedPhoneNumber: masked,
      expiresAt: now + PHONE_OTP_LIFETIME_MS,
      nextAllowedSendAt: decision.nextAllowedAt,
    };
  }

  /** The challenge stored under this hash for `purpose` (in any state), or undefined. */
  async find(challengeHash: string, purpose: PhoneOtpPurpose): Promise<FoundPhoneChallenge | undefined> {
    const challenge = await this.#deps.repository.findByHash(challengeHash);
    return challenge?.purpose === purpose ? { ...challenge, challengeHash } : undefined;
  }

  /**
   * Checks `code` against a live challenge (every check counts one of its 5 attempts, before the
   * provider is asked) and consumes it on success. A login must still belong to the same active user,
   * whose number is then marked verified; a signup's number must still be free (the caller creates the
   * account). Every failure is audited with its reason and is otherwise the same for the caller.
   *
   * Failures also count per number across challenges, by Svc itself (the provider's own limit holds per
   * verification only): while the number is locked, the check throws the 429 `too_many_attempts` error
   * and the provider is not asked. A failure of the provider stays counted: it may have checked the code.
   */
  async check(
    challenge: FoundPhoneChallenge,
    code: string,
    context: PhoneChallengeContext,
  ): Promise<PhoneChallengeCheck> {
    const attempt = await beginOtpCheck(this.#deps, {
      channel: 'sms',
      address: challenge.phoneE164,
      purpose: challenge.purpose,
      clientId: challenge.clientId,
      route: context.operation,
      ipAddress: context.ipAddress,
      audited: { phone: maskPhoneNumber(challenge.phoneE164) },
    });
    const checked = await this.#checkCode(challenge, code, context);
    if (checked.ok) await attempt.succeeded();
    return checked;
  }

  async #checkCode(
    challenge: FoundPhoneChallenge,
    code: string,
    context: PhoneChallengeContext,
  ): Promise<PhoneChallengeCheck> {
    const { repository, clock } = this.#deps;
    const hash = challenge.challengeHash;
    const fail = async (reason: string): Promise<PhoneChallengeCheck> => {
      await this.#audit('auth.phone_otp.failed', challenge, context, { reason });
      return { ok: false, reason };
    };
    if (!(await repository.countAttempt(hash, clock.now(), PHONE_OTP_MAX_ATTEMPTS))) {
      return fail('challenge_not_live');
    }
    if (challenge.purpose === 'login' && challenge.userId === null) return fail('unknown_number');
    if (
      challenge.purpose === 'signup' &&
      (await repository.findAccountByPhone(challenge.phoneE164)) !== undefined
    ) {
      return fail('number_taken');
    }
    const checked = await this.#deps.provider.checkVerification(challenge.phoneE164, code);
    if (!checked.approved) return fail('wrong_code');
    if (!(await repository.consume(hash, clock.now()))) return fail('challenge_not_live');
    if (challenge.purpose === 'signup') {
      await this.#audit('auth.phone_otp.verified', challenge, context, {});
      return { ok: true, challenge, userId: null };
    }
    // The number must still be this active user's (it may have changed since the start).
    const account = await repository.findAccountByPhone(challenge.phoneE164);
    if (account === undefined || !account.active || account.userId !== challenge.userId) {
      return fail('account_changed');
    }
    await repository.markPhoneVerified(account.userId, challenge.phoneE164, clock.now());
    await this.#audit('auth.phone_otp.verified', challenge, context, {});
    return { ok: true, challenge, userId: account.userId };
  }

  async #audit(
    kind: string,
    challenge: PhoneOtpChallengeRecord,
    context: PhoneChallengeContext,
    extra: Record<string, unknown>,
  ): Promise<void> {
    const user = kind === 'auth.phone_otp.verified' ? challenge.userId : null;
    await this.#deps.audit.record({
      kind,
      ...(user === null
        ? { actorType: 'client' as const, actorId: challenge.clientId }
        : { actorType: 'user' as const, actorId: user }),
      clientId: challenge.clientId,
      ...(challenge.userId === null ? {} : { userId: challenge.userId }),
      ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
      data: {
        phone: maskPhoneNumber(challenge.phoneE164),
        purpose: challenge.purpose,
        operation: context.operation,
        ...extra,
      },
    });
  }
}
