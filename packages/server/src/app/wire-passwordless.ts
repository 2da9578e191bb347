import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { EmailService } from '../email/email-service.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { EmailOtpChallenges } from '../signin/methods/email-otp/email-otp-challenges.js';
import { MagicLinks } from '../signin/methods/magic-link/magic-links.js';
import { PasswordlessSignIn } from '../signin/methods/email-otp/passwordless-sign-in.js';
import type { FailureThrottle } from '../ratelimit/failure-throttle.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Db } from '../storage/database.js';
import { passwordlessRepository } from '../storage/repositories/passwordless.js';
import { userRepository } from '../storage/repositories/users.js';
import type { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import type { HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { DirectSignIn } from '../signin/direct-sign-in.js';
import type { SignupService } from '../signin/signup.js';

export interface WirePasswordlessContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'publicOrigin' | 'authBase' | 'rateLimits' | 'failureLimits'>;
  /** The direct helpers' client gate and sign-in; signup for email sign-ups. */
  readonly direct: DirectSignIn;
  readonly signup: SignupService;
  /** The limit on refused handed-out tokens (sign-in links). */
  readonly tokenChecks: HandedOutTokenLimit;
  /** A proven address takes over an unverified account of that address. */
  readonly accountClaims: UnverifiedAccountClaim;
  readonly email: EmailService;
  readonly rateLimiter: RateLimiter;
  readonly failureThrottle: FailureThrottle;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * Builds email OTP, email OTP signup and magic-link sign-in over the database, the sign-in engine and
 * email; its `challenges` and `magicLinks` primitives also serve the hosted pages (app/wire-authorize.ts).
 */
export function wirePasswordless(ctx: WirePasswordlessContext): PasswordlessSignIn {
  const store = passwordlessRepository(ctx.db);
  const users = userRepository(ctx.db);
  const shared = {
    store,
    users,
    claims: ctx.accountClaims,
    email: ctx.email,
    rateLimiter: ctx.rateLimiter,
    audit: ctx.audit,
  };
  const time = { clock: ctx.clock, ids: ctx.ids };
  return new PasswordlessSignIn({
    challenges: new EmailOtpChallenges({
      ...shared,
      ...time,
      sendPolicy: ctx.config.rateLimits.otpSend,
      failures: { throttle: ctx.failureThrottle, rule: ctx.config.failureLimits.otpAddress },
    }),
    magicLinks: new MagicLinks({
      ...shared,
      ...time,
      sendPolicy: ctx.config.rateLimits.magicLinkSend,
      tokenChecks: ctx.tokenChecks,
      authUrl: `${ctx.config.publicOrigin}${ctx.config.authBase}`,
    }),
    direct: ctx.direct,
    signup: ctx.signup,
    ids: ctx.ids,
  });
}
