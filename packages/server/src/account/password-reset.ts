import {
  opaqueTokenSchema,
  type SvcPasswordResetDelivery,
  type SvcTrustedPasswordResetEmailResult,
} from '@svc/contract';
import { actorFields, type AdminActor } from '../audit/actor.js';
import { recordNotFound } from '../directory/errors.js';
import type { ClientRepository, UserRepository } from '../directory/repository.js';
import type { UnverifiedAccountClaim } from '../directory/unverified-account-claim.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { EmailDelivery, EmailService } from '../email/email-service.js';
import { MINUTE_MS, toIso, type Clock } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import { SvcConflictError, SvcError, SvcPublicAuthError, SvcValidationError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { refusedSendOf, SvcSendRefusedError } from '../ratelimit/refused-send.js';
import type { RateLimitPolicy } from '../ratelimit/rules.js';
import { maskEmail, requireEmail, requireToken, type AccountCallContext } from './account-email.js';
import type { AccountRepositories } from './repository.js';
import { fillResetUrlTemplate, validateResetUrlTemplate } from './reset-url-template.js';

/** Reset tokens live 30 minutes. */
export const PASSWORD_RESET_TOKEN_LIFETIME_MS = 30 * MINUTE_MS;

/** Same rule as the admin API: 8 to 1024 characters. */
export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 1024;

/** The public message; identical whether or not an account exists (enumeration safety). */
export const PASSWORD_RESET_MESSAGE =
  'If an account with a password exists for this email, a link to reset the password has been sent.';

export interface PasswordResetDeps {
  readonly repositories: AccountRepositories;
  readonly users: Pick<UserRepository, 'findByEmailKey' | 'findById'>;
  readonly clients: Pick<ClientRepository, 'findByClientId'>;
  readonly email: EmailService;
  readonly rateLimiter: RateLimiter;
  readonly policy: RateLimitPolicy;
  /** Links that found nothing usable, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** `{PublicOrigin}{authBase}`: where the default link points (never request headers). */
  readonly linkBase: string;
  readonly development: boolean;
  readonly hashPassword: (password: string) => Promise<string>;
  /** Ends every OAuth session and issuer browser session of the user after a reset. */
  readonly endAllSessions: (userId: string) => Promise<void>;
  /** The link proved the address: an account nobody had proved it for is claimed before the new password. */
  readonly claims: Pick<UnverifiedAccountClaim, 'claim'>;
}

export interface SendResetInput {
  readonly email: unknown;
  readonly clientId?: string | null | undefined;
  readonly resetUrlTemplate?: string | null | undefined;
  /**
   * The hosted authorization request the user came from (the hosted form only): carried in the default
   * link as `request_id`, so that the reset page can lead back to that sign-in. Not a secret: a request
   * is bound to the browser that started it. Ignored with a template.
   */
  readonly returnRequestId?: string | null | undefined;
}

/**
 * Password reset: request → one-time 30-minute token mailed as a link → reset with a new password. Public
 * answers are the same for every address; only active users with a password get a token and an email.
 */
export class PasswordReset {
  constructor(private readonly deps: PasswordResetDeps) {}

  /**
   * Issues a token without sending anything, for an app that delivers it itself (trusted, in-process).
   * Null when there is no active user with a password for the address. Older unused tokens die.
   */
  async createToken(rawEmail: unknown): Promise<{ token: string; expiresAt: string; userId: string } | null> {
    const user = await this.#eligibleUser(requireEmail(rawEmail).key);
    if (user === undefined) return null;
    const issued = await this.#issue(user.id);
    return { token: issued.token, expiresAt: toIso(issued.expiresAt), userId: user.id };
  }

  /**
   * Sends a reset link. The template (trusted form only) is validated, and its client checked, before
   * anything else, so a bad template is a 400 whatever the address. An unknown address or a user
   * without a password answer the generic result and get nothing; a send the rate limit refuses (counted
   * alike for every address, before the lookup) throws SvcSendRefusedError.
   */
  async send(
    input: SendResetInput,
    context: AccountCallContext = {},
  ): Promise<SvcTrustedPasswordResetEmailResult> {
    const { address: email, key: emailKey } = requireEmail(input.email);
    const clientId = input.clientId ?? null;
    const template = input.resetUrlTemplate ?? null;
    if (template !== null) {
      validateResetUrlTemplate(template, this.deps.development);
      const client = clientId === null ? undefined : await this.deps.clients.findByClientId(clientId);
      if (client === undefined || !client.active || !client.isFirstParty) {
        throw new SvcValidationError(
          'A reset URL template is accepted only for an active first-party client.',
          [{ path: 'clientId', message: 'Expected an active first-party client.' }],
        );
      }
    }
    const now = this.deps.clock.now();
    const decision = await this.deps.rateLimiter.consume(this.deps.policy, {
      identifier: emailKey,
      ip: context.ipAddress,
    });
    const result = {
      maskedEmail: maskEmail(email),
      expiresAt: toIso(now + PASSWORD_RESET_TOKEN_LIFETIME_MS),
      nextAllowedSendAt: toIso(decision.nextAllowedAt),
      message: PASSWORD_RESET_MESSAGE,
    };
    const none = { deliveryId: null, deliveryStatus: null, providerMessageId: null, failureDetail: null };
    const audit = { clientId: clientId ?? undefined, ipAddress: context.ipAddress };
    const refused = refusedSendOf(decision);
    if (refused !== undefined) {
      await this.#audit('password_reset.rate_limited', audit, { route: context.route });
      throw new SvcSendRefusedError(refused);
    }
    const user = await this.#eligibleUser(emailKey);
    if (user === undefined) {
      await this.#audit('password_reset.requested', audit, { route: context.route, sent: false });
      return { ...result, ...none };
    }
    const issued = await this.#issue(user.id);
    const link =
      template === null
        ? this.#defaultLink(issued.token, input.returnRequestId ?? null)
        : fillResetUrlTemplate(template, issued.token);
    const delivery = await this.#mail(user, link);
    await this.#audit(
      'password_reset.requested',
      { ...audit, userId: user.id },
      { route: context.route, sent: true, deliveryId: delivery.id, deliveryStatus: delivery.status },
    );
    return {
      ...result,
      deliveryId: delivery.id,
      deliveryStatus: delivery.status,
      providerMessageId: delivery.providerMessageId,
      failureDetail: delivery.failureDetail,
    };
  }

  /**
   * An operator's reset (`POST /users/{id}/password-reset`): the built-in `auth.password-reset` email
   * with a new link (older ones die) to the user's address, password set or not (the link sets one). Not
   * counted by the public send limit: an operator asked, and the event names them. Answers how the email
   * left; a user without an address or deactivated is a 409, and a send the mail server refused a 502
   * (the link is void then), so that nothing answers "sent" when nothing was.
   */
  async sendByOperator(userId: string, actor?: AdminActor): Promise<SvcPasswordResetDelivery> {
    const user = await this.deps.users.findById(userId);
    if (user === undefined) throw recordNotFound('User', userId);
    if (!user.active) {
      throw new SvcConflictError(
        `User '${userId}' is deactivated: reactivate it (PATCH /users/{id} with active: true) first.`,
      );
    }
    if (user.email === null) {
      throw new SvcConflictError(
        `User '${userId}' has no email address to send a reset to: set one (PATCH /users/{id} with email) first.`,
      );
    }
    const issued = await this.#issue(user.id);
    const delivery = await this.#mail(
      { id: user.id, email: user.email },
      this.#defaultLink(issued.token, null),
    );
    await this.deps.audit.record({
      kind: 'admin.user.password_reset_sent',
      ...actorFields(actor),
      userId: user.id,
      data: { deliveryId: delivery.id, deliveryStatus: delivery.status },
    });
    if (delivery.status === 'failed') {
      throw new SvcError(
        'email_delivery_failed',
        `The mail server refused the password reset email (delivery ${delivery.id}): ` +
          `${delivery.failureDetail ?? 'no detail'}. Check SVC_SMTP_URL and the delivery log, then send it again.`,
        { status: 502, expose: true },
      );
    }
    return { delivery: delivery.status, deliveryId: delivery.id, expiresAt: toIso(issued.expiresAt) };
  }

  /**
   * Sets a new password with a reset token, then ends every session of the user (OAuth sessions and
   * browser sessions: whoever knew the old password is signed out). The link proved the address, so an
   * account whose address was unverified is claimed first (its other identities and factors go too,
   * docs/decisions/accounts-linking-unverified-accounts.md). The password is checked first, so a
   * too-short password does not burn the token, and the token is looked up before the password is
   * hashed, so that a guessed or stale token costs an argon2id hash to nobody.
   */
  async reset(
    input: { token: unknown; newPassword: unknown },
    context: AccountCallContext = {},
  ): Promise<void> {
    const token = requireToken(input.token);
    const password = input.newPassword;
    if (
      typeof password !== 'string' ||
      password.length < MIN_PASSWORD_LENGTH ||
      password.length > MAX_PASSWORD_LENGTH
    ) {
      throw new SvcValidationError('The new password must have 8 to 1024 characters.', [
        { path: 'newPassword', message: 'Expected 8 to 1024 characters.' },
      ]);
    }
    const invalid = () =>
      new SvcPublicAuthError('invalid_token', 'The password reset link is invalid or has expired.', 400);
    const tokens = this.deps.repositories.passwordResetTokens;
    const live = await lookUpHandedOut(this.deps.tokenChecks, context.ipAddress, () =>
      tokens.findLive(sha256Hex(token), this.deps.clock.now()),
    );
    if (live === undefined) throw invalid();
    const passwordHash = await this.deps.hashPassword(password);
    // Consumed only now: two resets with one link race here, and the one that loses hashed for nothing.
    const now = this.deps.clock.now();
    const record = await tokens.consume(sha256Hex(token), now);
    const user = record === undefined ? undefined : await this.deps.users.findById(record.userId);
    if (record === undefined || user === undefined) throw invalid();
    await this.deps.claims.claim(user, {
      proof: 'password_reset',
      ...(context.ipAddress === undefined ? {} : { ipAddress: context.ipAddress }),
    });
    if (!(await this.deps.repositories.users.setPasswordHash(record.userId, passwordHash, now))) {
      throw invalid();
    }
    await this.deps.endAllSessions(record.userId);
    await this.#audit('password_reset.completed', { userId: record.userId }, {});
  }

  /**
   * Whether a reset token can still set a password (unused, unexpired, its user active), without using
   * it: the hosted reset page shows its form only for a live link. A malformed token is simply not live;
   * an unknown one is counted against the address it came from.
   */
  async isTokenLive(token: unknown, context: AccountCallContext = {}): Promise<boolean> {
    // Not the shape of a token Svc issues: not live, and nothing was looked up to count.
    const shaped = opaqueTokenSchema.safeParse(token);
    if (!shaped.success) return false;
    const record = await lookUpHandedOut(this.deps.tokenChecks, context.ipAddress, () =>
      this.deps.repositories.passwordResetTokens.findLive(sha256Hex(shaped.data), this.deps.clock.now()),
    );
    if (record === undefined) return false;
    const user = await this.deps.users.findById(record.userId);
    return user?.active === true;
  }

  /** Mails the reset link; a failed delivery voids the user's live links (docs/reference/sign-in.md "Password reset"). */
  async #mail(user: { readonly id: string; readonly email: string }, link: string): Promise<EmailDelivery> {
    const delivery = await this.deps.email.send({
      templateKey: 'auth.password-reset',
      to: user.email,
      variables: { link, expiresInMinutes: String(PASSWORD_RESET_TOKEN_LIFETIME_MS / MINUTE_MS) },
    });
    if (delivery.status === 'failed') {
      await this.deps.repositories.passwordResetTokens.invalidateForUser(user.id, this.deps.clock.now());
    }
    return delivery;
  }

  #defaultLink(token: string, returnRequestId: string | null): string {
    const query = new URLSearchParams({ token });
    if (returnRequestId !== null) query.set('request_id', returnRequestId);
    return `${this.deps.linkBase}/password/reset?${query.toString()}`;
  }

  async #eligibleUser(emailKey: string) {
    const user = await this.deps.users.findByEmailKey(emailKey);
    return user !== undefined && user.active && user.passwordHash !== null ? user : undefined;
  }

  async #issue(userId: string): Promise<{ token: string; expiresAt: number }> {
    const now = this.deps.clock.now();
    // One live link per user: a new request invalidates the older unused ones.
    await this.deps.repositories.passwordResetTokens.invalidateForUser(userId, now);
    const token = this.deps.ids.secret();
    const expiresAt = now + PASSWORD_RESET_TOKEN_LIFETIME_MS;
    await this.deps.repositories.passwordResetTokens.insert({
      tokenHash: sha256Hex(token),
      userId,
      emailKey: null,
      createdAt: now,
      expiresAt,
    });
    return { token, expiresAt };
  }

  async #audit(
    kind: string,
    who: { userId?: string | undefined; clientId?: string | undefined; ipAddress?: string | undefined },
    data: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.audit.record({
      kind,
      actorType: who.userId === undefined ? 'system' : 'user',
      ...(who.userId === undefined ? {} : { actorId: who.userId, userId: who.userId }),
      ...(who.clientId === undefined ? {} : { clientId: who.clientId }),
      ...(who.ipAddress === undefined ? {} : { ipAddress: who.ipAddress }),
      data: Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined)),
    });
  }
}
