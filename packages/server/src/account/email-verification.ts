import type { SvcEmailVerificationResult } from '@svc/contract';
import type { UserRepository } from '../directory/repository.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { EmailService } from '../email/email-service.js';
import { HOUR_MS, MINUTE_MS, toIso, type Clock } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import { SvcPublicAuthError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { refusedSendOf, SvcSendRefusedError } from '../ratelimit/refused-send.js';
import type { RateLimitPolicy } from '../ratelimit/rules.js';
import { maskEmail, requireEmail, requireToken, type AccountCallContext } from './account-email.js';
import type { AccountRepositories } from './repository.js';

/** Verification tokens live 24 hours. */
export const EMAIL_VERIFICATION_TOKEN_LIFETIME_MS = 24 * HOUR_MS;

/** The public message; identical whether or not an account exists (enumeration safety). */
export const EMAIL_VERIFICATION_MESSAGE =
  'If an account with an unverified email exists for this address, a verification link has been sent.';

export interface EmailVerificationDeps {
  readonly repositories: AccountRepositories;
  readonly users: Pick<UserRepository, 'findByEmailKey'>;
  readonly email: EmailService;
  readonly rateLimiter: RateLimiter;
  readonly policy: RateLimitPolicy;
  /** Links that found nothing usable, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** `{PublicOrigin}{authBase}`: the link opens `GET {linkBase}/email/verify?token=…`. */
  readonly linkBase: string;
}

/**
 * Email verification: request → one-time 24-hour token mailed as a link → verify. The token is bound to
 * the email key at issue time, so it cannot verify an address the user changed to later.
 */
export class EmailVerification {
  constructor(private readonly deps: EmailVerificationDeps) {}

  /**
   * Sends a verification link to an active user whose email is not verified yet. Every other case (unknown,
   * inactive, already verified) answers the same generic result and sends nothing; a send the rate limit
   * refuses (counted alike for every address) throws SvcSendRefusedError. The token is never returned (the
   * `verification-token` alias sends too).
   */
  async send(rawEmail: unknown, context: AccountCallContext = {}): Promise<SvcEmailVerificationResult> {
    const { address: email, key: emailKey } = requireEmail(rawEmail);
    const now = this.deps.clock.now();
    const decision = await this.deps.rateLimiter.consume(this.deps.policy, {
      identifier: emailKey,
      ip: context.ipAddress,
    });
    const result = {
      maskedEmail: maskEmail(email),
      expiresAt: toIso(now + EMAIL_VERIFICATION_TOKEN_LIFETIME_MS),
      nextAllowedSendAt: toIso(decision.nextAllowedAt),
      message: EMAIL_VERIFICATION_MESSAGE,
    };
    const refused = refusedSendOf(decision);
    if (refused !== undefined) {
      await this.#audit('email_verification.rate_limited', undefined, context, {});
      throw new SvcSendRefusedError(refused);
    }
    const user = await this.deps.users.findByEmailKey(emailKey);
    if (user === undefined || !user.active || user.emailVerified) {
      await this.#audit('email_verification.requested', undefined, context, { sent: false });
      return result;
    }
    const tokens = this.deps.repositories.emailVerificationTokens;
    await tokens.invalidateForUser(user.id, now);
    const token = this.deps.ids.secret();
    await tokens.insert({
      tokenHash: sha256Hex(token),
      userId: user.id,
      emailKey: user.emailKey,
      createdAt: now,
      expiresAt: now + EMAIL_VERIFICATION_TOKEN_LIFETIME_MS,
    });
    const delivery = await this.deps.email.send({
      templateKey: 'auth.email-verification',
      to: user.email,
      variables: {
        link: `${this.deps.linkBase}/email/verify?token=${encodeURIComponent(token)}`,
        expiresInMinutes: String(EMAIL_VERIFICATION_TOKEN_LIFETIME_MS / MINUTE_MS),
      },
    });
    if (delivery.status === 'failed') await tokens.invalidateForUser(user.id, this.deps.clock.now());
    await this.#audit('email_verification.requested', user.id, context, {
      sent: true,
      deliveryId: delivery.id,
      deliveryStatus: delivery.status,
    });
    return result;
  }

  /** Uses the token once and marks the address verified; `invalid_token` (400) otherwise. */
  async verify(rawToken: unknown, context: AccountCallContext = {}): Promise<void> {
    const token = requireToken(rawToken);
    const now = this.deps.clock.now();
    const record = await lookUpHandedOut(this.deps.tokenChecks, context.ipAddress, () =>
      this.deps.repositories.emailVerificationTokens.consume(sha256Hex(token), now),
    );
    const verified =
      record !== undefined &&
      record.emailKey !== null &&
      (await this.deps.repositories.users.markEmailVerified(record.userId, record.emailKey, now));
    if (record === undefined || !verified) {
      throw new SvcPublicAuthError('invalid_token', 'The verification link is invalid or has expired.', 400);
    }
    await this.#audit('email_verification.completed', record.userId, context, {});
  }

  async #audit(
    kind: string,
    userId: string | undefined,
    context: AccountCallContext,
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.audit.record({
      kind,
      actorType: userId === undefined ? 'system' : 'user',
      ...(userId === undefined ? {} : { actorId: userId, userId }),
      ...(context.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
      data: { ...(context.route === undefined ? {} : { route: context.route }), ...data },
    });
  }
}
