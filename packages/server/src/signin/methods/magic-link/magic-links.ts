import type { UserRepository } from '../../../directory/repository.js';
import { requireEmailKey } from '../../../directory/email-key.js';
import type { UnverifiedAccountClaim } from '../../../directory/unverified-account-claim.js';
import type { AuditLog } from '../../../audit/audit-log.js';
import { MINUTE_MS, type Clock } from '../../../kernel/clock.js';
import { sha256Hex } from '../../../kernel/crypto.js';
import type { Ids } from '../../../kernel/ids.js';
import { lookUpHandedOut, type HandedOutTokenLimit } from '../../../ratelimit/handed-out-tokens.js';
import { refusedSendOf, SvcSendRefusedError } from '../../../ratelimit/refused-send.js';
import type { RateLimitPolicy } from '../../../ratelimit/rules.js';
import type { EmailChallengeContext, EmailSender, SendLimiter } from '../email-otp/email-otp-challenges.js';
import { maskEmail } from '../shared/otp-code.js';
import type { MagicLinkRecord, PasswordlessStore } from '../email-otp/repository.js';

/** Magic links live 15 minutes (docs/reference/sign-in.md "Sign-in links"). */
export const MAGIC_LINK_LIFETIME_MS = 15 * MINUTE_MS;

/** A link to send to an address as the user typed it (validated). */
export interface MagicLinkIssue {
  readonly email: string;
  /** The client the sign-in is for (checked by the caller). */
  readonly clientId: string;
  /** A direct login's requested organization; null for a hosted login. */
  readonly organizationId: string | null;
  /** The hosted authorization request the link continues; null for a direct link. */
  readonly authRequestId: string | null;
  readonly context: EmailChallengeContext;
}

/** What an issue produced; the same whether or not an email was sent (a refused send throws instead). */
export interface IssuedMagicLink {
  /**
   * SHA-256 of the link's token. For an address that gets no email it is the hash of a token that was
   * never stored, so that a hosted request records a challenge either way.
   */
  readonly linkHash: string;
  readonly maskedEmail: string;
  readonly expiresAt: number;
  readonly nextAllowedSendAt: number;
}

export interface MagicLinksDeps {
  readonly store: PasswordlessStore;
  readonly users: Pick<UserRepository, 'findByEmailKey' | 'findById'>;
  /** Verifies the proved address; an account nobody had proved it for is claimed by the link's holder. */
  readonly claims: Pick<UnverifiedAccountClaim, 'claim'>;
  readonly email: EmailSender;
  readonly rateLimiter: SendLimiter;
  /** config.rateLimits.magicLinkSend. */
  readonly sendPolicy: RateLimitPolicy;
  /** Links that found nothing usable, counted per address with every handed-out token. */
  readonly tokenChecks: HandedOutTokenLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** `{PublicOrigin}{authBase}`: the emailed link is `{this}/magic-link?token=…` (docs/reference/sign-in.md "Sign-in links"). */
  readonly authUrl: string;
}

/**
 * The magic-link primitives that the direct operations (PasswordlessSignIn) and the hosted pages
 * (EmailOtpSteps) share: issue a link (rate limit, enumeration safety, the email) and consume one (single
 * use, the user still active, the email verified). Only an active account's address gets a link
 * (and a row); every address gets the same answer. Neither checks the client.
 */
export class MagicLinks {
  readonly #deps: MagicLinksDeps;

  constructor(deps: MagicLinksDeps) {
    this.#deps = deps;
  }

  /**
   * Emails a single-use link to a known, active address; counts the rate limit for every address, before
   * the lookup. A refused send stores and sends nothing and throws SvcSendRefusedError.
   */
  async issue(input: MagicLinkIssue): Promise<IssuedMagicLink> {
    const { clock, ids } = this.#deps;
    // A 400 for an address the key refuses, whatever accounts exist (it depends on the address alone).
    const emailKey = requireEmailKey(input.email);
    const decision = await this.#deps.rateLimiter.consume(this.#deps.sendPolicy, {
      // The key in lower case: for an ASCII address the trimmed address in lower case, as it always was.
      identifier: emailKey.toLowerCase(),
      ...(input.context.ipAddress == null ? {} : { ip: input.context.ipAddress }),
    });
    const refused = refusedSendOf(decision);
    if (refused !== undefined) {
      await this.#record('auth.magic_link.not_sent', input.clientId, input.context, {
        reason: 'rate_limited',
      });
      throw new SvcSendRefusedError(refused);
    }
    const account = await this.#deps.users.findByEmailKey(emailKey);
    const user = account?.active === true ? account : undefined;
    const now = clock.now();
    const expiresAt = now + MAGIC_LINK_LIFETIME_MS;
    const token = ids.secret();
    const linkHash = sha256Hex(token);
    if (user !== undefined) {
      await this.#deps.store.insertMagicLink({
        tokenHash: linkHash,
        userId: user.id,
        clientId: input.clientId,
        organizationId: input.organizationId,
        authRequestId: input.authRequestId,
        createdAt: now,
        expiresAt,
        consumedAt: null,
      });
      const delivery = await this.#deps.email.send({
        templateKey: 'auth.magic-link',
        to: user.email ?? input.email.trim(),
        variables: {
          link: `${this.#deps.authUrl}/magic-link?token=${encodeURIComponent(token)}`,
          expiresInMinutes: String(MAGIC_LINK_LIFETIME_MS / MINUTE_MS),
        },
      });
      await this.#record(
        'auth.magic_link.sent',
        input.clientId,
        input.context,
        { hosted: input.authRequestId !== null, delivery_id: delivery.id, delivery_status: delivery.status },
        user.id,
      );
    } else {
      await this.#record('auth.magic_link.not_sent', input.clientId, input.context, {
        reason: 'unknown_email',
      });
    }
    return {
      linkHash,
      maskedEmail: maskEmail(input.email),
      expiresAt,
      nextAllowedSendAt: decision.nextAllowedAt,
    };
  }

  /**
   * The unconsumed, unexpired link of this token, or undefined (counted against the address it came
   * from). Never consumes (link scanners).
   */
  find(token: string, address: string | null): Promise<MagicLinkRecord | undefined> {
    return lookUpHandedOut(this.#deps.tokenChecks, address, () =>
      this.#deps.store.findMagicLink(sha256Hex(token), this.#deps.clock.now()),
    );
  }

  /**
   * Consumes a link found by `find` (exactly once, while unexpired) for its user, who must still be
   * active; verifies the email (an unverified account is claimed, as by an emailed code). Returns the user's id, or undefined (audited) when the link is
   * used up meanwhile or the user was deactivated.
   */
  async consume(link: MagicLinkRecord, context: EmailChallengeContext): Promise<string | undefined> {
    const { store, clock } = this.#deps;
    const user = await this.#deps.users.findById(link.userId);
    if (user?.active !== true || !(await store.consumeMagicLink(link.tokenHash, clock.now()))) {
      await this.refused(link.clientId, context);
      return undefined;
    }
    await this.#deps.claims.claim(user, {
      proof: 'magic_link',
      clientId: link.clientId,
      ipAddress: context.ipAddress,
    });
    await this.#record(
      'auth.magic_link.completed',
      link.clientId,
      context,
      { hosted: link.authRequestId !== null },
      user.id,
    );
    return user.id;
  }

  /** Records a link that could not be used (unknown, used, expired, or not for this client). */
  async refused(clientId: string, context: EmailChallengeContext): Promise<void> {
    await this.#record('auth.magic_link.failed', clientId, context, {});
  }

  /** `userId`: the user who did this (a link sent to or used by them); else the service acted. */
  async #record(
    kind: string,
    clientId: string,
    context: EmailChallengeContext,
    data: Record<string, unknown>,
    userId?: string,
  ): Promise<void> {
    await this.#deps.audit.record({
      kind,
      ...(userId === undefined
        ? { actorType: 'system' as const }
        : { actorType: 'user' as const, actorId: userId, userId }),
      clientId,
      ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
      data: { route: context.operation, ...data },
    });
  }
}
