import { AccountOperations } from '../account/account-operations.js';
import { EmailVerification } from '../account/email-verification.js';
import { PasswordReset } from '../account/password-reset.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { EmailService } from '../email/email-service.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { HashPassword } from '../directory/password-hasher.js';
import type { Db } from '../storage/database.js';
import { accountRepositories } from '../storage/repositories/account-tokens.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { userRepository } from '../storage/repositories/users.js';
import type { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import type { TokenEngine } from '../oauth/tokens/token-engine.js';
import type { HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { BrowserSessions } from '../signin/browser-sessions.js';

export interface WireAccountContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'publicOrigin' | 'authBase' | 'development' | 'rateLimits'>;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
  readonly email: EmailService;
  readonly rateLimiter: RateLimiter;
  /** A reset ends every session of the account: its token sessions and its browser sessions. */
  readonly tokenEngine: Pick<TokenEngine, 'revocation'>;
  readonly browserSessions: Pick<BrowserSessions, 'endAllForUser'>;
  /** The limit on refused handed-out tokens (reset and verification links). */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly accountClaims: UnverifiedAccountClaim;
  readonly hashPassword: HashPassword;
}

/** Builds password reset and email verification over the database and the email and rate-limit services. */
export function wireAccount(ctx: WireAccountContext): AccountOperations {
  const repositories = accountRepositories(ctx.db);
  const users = userRepository(ctx.db);
  // Links use the configured public origin, never request host headers (docs/reference/sign-in.md
  // "Password reset").
  const linkBase = `${ctx.config.publicOrigin}${ctx.config.authBase}`;
  const common = {
    repositories,
    users,
    email: ctx.email,
    rateLimiter: ctx.rateLimiter,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
    linkBase,
    tokenChecks: ctx.tokenChecks,
  };
  const reset = new PasswordReset({
    ...common,
    clients: clientRepository(ctx.db),
    policy: ctx.config.rateLimits.passwordReset,
    development: ctx.config.development,
    hashPassword: ctx.hashPassword,
    claims: ctx.accountClaims,
    async endAllSessions(userId) {
      await ctx.tokenEngine.revocation.logoutAll(userId);
      await ctx.browserSessions.endAllForUser(userId);
    },
  });
  const verification = new EmailVerification({ ...common, policy: ctx.config.rateLimits.emailVerification });
  return new AccountOperations(reset, verification);
}
