import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { EmailService } from '../email/email-service.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { PasswordlessSignIn } from '../passwordless/passwordless-sign-in.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Db } from '../storage/database.js';
import { passwordlessRepository } from '../storage/repositories/passwordless.js';
import { userRepository } from '../storage/repositories/users.js';
import type { AuthEngine } from './wire-auth.js';

export interface WirePasswordlessContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'publicOrigin' | 'authBase' | 'rateLimits'>;
  readonly authEngine: Pick<AuthEngine, 'direct' | 'signIn' | 'tokens'>;
  readonly email: EmailService;
  readonly rateLimiter: RateLimiter;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Builds email OTP and magic-link sign-in over the database, the sign-in engine and email. */
export function wirePasswordless(ctx: WirePasswordlessContext): PasswordlessSignIn {
  return new PasswordlessSignIn({
    store: passwordlessRepository(ctx.db),
    users: userRepository(ctx.db),
    direct: ctx.authEngine.direct,
    email: ctx.email,
    rateLimiter: ctx.rateLimiter,
    policies: { otpSend: ctx.config.rateLimits.otpSend, magicLinkSend: ctx.config.rateLimits.magicLinkSend },
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
    authUrl: `${ctx.config.publicOrigin}${ctx.config.authBase}`,
  });
}
