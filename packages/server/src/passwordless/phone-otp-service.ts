import type { SvcLoginResult } from '@svc/contract';
import type { AuditLog } from '../audit/audit-log.js';
import { toIso, type Clock } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import { SvcInvalidOperationError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { validate } from '../kernel/validation.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../ratelimit/rules.js';
import type { DirectCallContext, DirectSignIn } from '../signin/direct-sign-in.js';
import { maskPhoneNumber, requirePhoneNumber } from '../sms/phone-number.js';
import { requireSmsConfig, type SmsConfig } from '../sms/sms-config.js';
import type { SmsVerificationProvider } from '../sms/verify-client.js';
import type { PhoneOtpRepository } from './phone-otp-repository.js';
import {
  svcPhoneOtpStartRequestSchema,
  svcPhoneOtpVerifyRequestSchema,
  type SvcPhoneOtpStartRequest,
  type SvcPhoneOtpStartResult,
  type SvcPhoneOtpVerifyRequest,
} from './phone-otp-requests.js';

/** DECISIONS.md "OTP (email, SMS)": 10 minutes, 5 attempts (the provider enforces its own as well). */
export const PHONE_OTP_LIFETIME_MS = 10 * 60_000;
export const PHONE_OTP_MAX_ATTEMPTS = 5;

/** RFC 8176 `sms`: confirmation by a code sent in a text message. */
export const AMR_SMS = 'sms';

/** The same words whether or not the number belongs to an account (enumeration safety). */
export const PHONE_OTP_SENT_MESSAGE =
  'If this phone number belongs to an account, a sign-in code has been sent to it by text message.';

const INVALID_CODE = 'The code is not valid or has expired; request a new code.';

/** Where an in-process call comes from (SvcAuthCallContext of the facade). */
export interface PhoneOtpCallContext {
  readonly route?: string;
  readonly ipAddress?: string;
  readonly userAgent?: string;
}

export interface PhoneOtpServiceDeps {
  readonly repository: PhoneOtpRepository;
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient' | 'completeSignIn'>;
  readonly provider: SmsVerificationProvider;
  /** The resolved SMS configuration; null when phone sign-in is off. */
  readonly smsConfig: SmsConfig | null;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
  /** config.rateLimits.otpSend. */
  readonly sendPolicy: RateLimitPolicy;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * Phone OTP sign-in (SPEC.md in-process rule 4: "Phone OTP is delivered by an SMS verification provider
 * and requires complete provider configuration …; invalid configuration or challenge failures raise an
 * invalid-operation error"). The provider (Twilio Verify) generates and checks the code; Svc keeps only
 * the hash of the challenge token, the number and a local attempts counter. First-party clients only,
 * like password login. An unknown number gets the same answer and a challenge that can never verify, and
 * no SMS is sent (a text costs money and would reach someone who has no account).
 */
export class PhoneOtpService {
  readonly #deps: PhoneOtpServiceDeps;

  constructor(deps: PhoneOtpServiceDeps) {
    this.#deps = deps;
  }

  /** RequestPhoneOtpAsync: starts a login challenge; identical results for known and unknown numbers. */
  async requestPhoneOtpAsync(
    request: SvcPhoneOtpStartRequest,
    context?: PhoneOtpCallContext,
  ): Promise<SvcPhoneOtpStartResult> {
    const config = requireSmsConfig(this.#deps.smsConfig);
    const input = validate(svcPhoneOtpStartRequestSchema, request, 'phone OTP start request');
    const call = directContext('requestPhoneOtpAsync', context);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const { e164 } = requirePhoneNumber(input.phoneNumber, config.defaultRegion);
    const masked = maskPhoneNumber(e164);
    const { clock, ids, repository, audit } = this.#deps;

    const decision = await this.#deps.rateLimiter.consume(this.#deps.sendPolicy, {
      identifier: e164,
      ip: context?.ipAddress,
    });
    const account = await repository.findAccountByPhone(e164);
    const user = account?.active === true ? account : undefined;
    const now = clock.now();
    const challengeToken = ids.secret();
    await repository.insert({
      id: ids.id('poc'),
      challengeHash: sha256Hex(challengeToken),
      purpose: 'login',
      phoneE164: e164,
      userId: user?.userId ?? null,
      clientId: client.clientId,
      organizationId: input.organizationId,
      signupTokenHash: null,
      signupData: null,
      createdAt: now,
      expiresAt: now + PHONE_OTP_LIFETIME_MS,
    });

    const base = {
      actorType: 'client' as const,
      actorId: client.clientId,
      clientId: client.clientId,
      ...(user === undefined ? {} : { userId: user.userId }),
      ...(context?.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
    };
    if (!decision.allowed) {
      // A refused send answers the same generic result (nothing says whether the number is known) and
      // sends nothing; NextAllowedSendAt tells the caller when to try again.
      await audit.record({
        ...base,
        kind: 'auth.phone_otp.rate_limited',
        data: { phone: masked, refusedBy: decision.refusedBy ?? null, operation: call.operation },
      });
    } else if (user === undefined) {
      await audit.record({
        ...base,
        kind: 'auth.phone_otp.unknown_number',
        data: { phone: masked, operation: call.operation },
      });
    } else {
      // Provider failures raise SvcInvalidOperationError (SmsProviderError), as rule 4 asks.
      const started = await this.#deps.provider.startVerification(e164);
      await audit.record({
        ...base,
        kind: 'auth.phone_otp.sent',
        data: { phone: masked, providerStatus: started.status, operation: call.operation },
      });
    }
    return {
      challengeToken,
      phoneNumber: e164,
      maskedPhoneNumber: masked,
      message: PHONE_OTP_SENT_MESSAGE,
      expiresAt: toIso(now + PHONE_OTP_LIFETIME_MS),
      nextAllowedSendAt: toIso(decision.nextAllowedAt),
    };
  }

  /**
   * VerifyPhoneOtpAsync: checks the code with the provider and signs the user in (tokens, or
   * organization selection). Every failure — unknown, used or expired challenge, attempts exhausted
   * (5), wrong code, unknown number — is the same SvcInvalidOperationError; each check counts an attempt.
   */
  async verifyPhoneOtpAsync(
    request: SvcPhoneOtpVerifyRequest,
    context?: PhoneOtpCallContext,
  ): Promise<SvcLoginResult> {
    requireSmsConfig(this.#deps.smsConfig);
    const input = validate(svcPhoneOtpVerifyRequestSchema, request, 'phone OTP verify request');
    const call = directContext('verifyPhoneOtpAsync', context);
    const { repository, clock } = this.#deps;
    const hash = sha256Hex(input.challengeToken);
    const challenge = await repository.findByHash(hash);
    if (challenge === undefined || challenge.purpose !== 'login') throw invalidCode();
    const client = await this.#deps.direct.requireFirstPartyClient(challenge.clientId, call);
    const fail = async (reason: string): Promise<never> => {
      await this.#deps.audit.record({
        kind: 'auth.phone_otp.failed',
        actorType: 'client',
        actorId: client.clientId,
        clientId: client.clientId,
        ...(challenge.userId === null ? {} : { userId: challenge.userId }),
        ...(context?.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
        data: { phone: maskPhoneNumber(challenge.phoneE164), reason, operation: call.operation },
      });
      throw invalidCode();
    };
    if (!(await repository.countAttempt(hash, clock.now(), PHONE_OTP_MAX_ATTEMPTS))) {
      return fail('challenge_not_live');
    }
    if (challenge.userId === null) return fail('unknown_number');
    const checked = await this.#deps.provider.checkVerification(challenge.phoneE164, input.code);
    if (!checked.approved) return fail('wrong_code');
    if (!(await repository.consume(hash, clock.now()))) return fail('challenge_not_live');
    // The number must still be this active user's (it may have changed since the start).
    const account = await repository.findAccountByPhone(challenge.phoneE164);
    if (account === undefined || !account.active || account.userId !== challenge.userId) {
      return fail('account_changed');
    }
    const now = clock.now();
    await repository.markPhoneVerified(account.userId, challenge.phoneE164, now);
    await this.#deps.audit.record({
      kind: 'auth.phone_otp.verified',
      actorType: 'user',
      actorId: account.userId,
      userId: account.userId,
      clientId: client.clientId,
      ...(context?.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
      data: { phone: maskPhoneNumber(challenge.phoneE164), operation: call.operation },
    });
    return this.#deps.direct.completeSignIn(
      {
        userId: account.userId,
        client,
        requestedOrganizationId: challenge.organizationId,
        amr: AMR_SMS,
        authTime: now,
      },
      call,
    );
  }
}

function invalidCode(): SvcInvalidOperationError {
  return new SvcInvalidOperationError(INVALID_CODE);
}

function directContext(operation: string, context: PhoneOtpCallContext | undefined): DirectCallContext {
  return {
    operation: context?.route ?? operation,
    ipAddress: context?.ipAddress ?? null,
    userAgent: context?.userAgent ?? null,
  };
}
