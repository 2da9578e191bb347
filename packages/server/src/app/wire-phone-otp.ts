import type { SvcConfig } from '../config/resolve.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { PhoneOtpChallenges } from '../signin/methods/phone-otp/phone-otp-challenges.js';
import { PhoneOtpService } from '../signin/methods/phone-otp/phone-otp-service.js';
import type { FailureThrottle } from '../ratelimit/failure-throttle.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { SmsVerificationProvider } from '../sms/verify-client.js';
import type { Db } from '../storage/database.js';
import { phoneOtpRepository } from '../storage/repositories/phone-otp.js';
import type { DirectSignIn } from '../signin/direct-sign-in.js';
import type { SignupService } from '../signin/signup.js';

export interface WirePhoneOtpContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'sms' | 'rateLimits' | 'failureLimits'>;
  /** The direct helpers' client gate and sign-in, and signup (phone sign-up creates the account). */
  readonly direct: DirectSignIn;
  readonly signup: SignupService;
  readonly smsProvider: SmsVerificationProvider;
  readonly rateLimiter: RateLimiter;
  readonly failureThrottle: FailureThrottle;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * Builds the phone OTP operations (SvcAuthService delegates RequestPhoneOtpAsync and friends here); their
 * `challenges` primitives also serve the hosted phone pages (app/wire-authorize.ts).
 */
export function wirePhoneOtp(ctx: WirePhoneOtpContext): PhoneOtpService {
  const challenges = new PhoneOtpChallenges({
    repository: phoneOtpRepository(ctx.db),
    provider: ctx.smsProvider,
    smsConfig: ctx.config.sms,
    rateLimiter: ctx.rateLimiter,
    sendPolicy: ctx.config.rateLimits.otpSend,
    failures: { throttle: ctx.failureThrottle, rule: ctx.config.failureLimits.otpAddress },
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  return new PhoneOtpService({
    challenges,
    direct: ctx.direct,
    signup: ctx.signup,
    ids: ctx.ids,
  });
}
