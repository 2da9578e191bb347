import type { UserRepository } from '../../../directory/repository.js';
import { requireEmailKey } from '../../../directory/email-key.js';
import type { UnverifiedAccountClaim } from '../../../directory/unverified-account-claim.js';
import type { AuditLog } from '../../../audit/audit-log.js';
import type { EmailDelivery } from '../../../email/email-service.js';
import { MINUTE_MS, type Clock } from '../../../kernel/clock.js';
import { safeEqual, sha256Hex } from '../../../kernel/crypto.js';
import type { Ids } from '../../../kernel/ids.js';
import type { FailureLimit } from '../../../ratelimit/failure-throttle.js';
import type { RateLimitDecision, RateLimitSubjects } from '../../../ratelimit/rate-limiter.js';
import { refusedSendOf, SvcSendRefusedError } from '../../../ratelimit/refused-send.js';
import type { RateLimitPolicy } from '../../../ratelimit/rules.js';
import { generateOtpCode, maskEmail } from '../shared/otp-code.js';
import { beginOtpCheck } from '../shared/otp-throttle.js';
import type { EmailOtpChallengeRecord, PasswordlessStore, PendingSignupData } from './repository.js';

/** Email OTP challenges live 10 minutes and allow 5 attempts (docs/reference/sign-in.md "Email codes"). */
export const EMAIL_OTP_LIFETIME_MS = 10 * MINUTE_MS;
export const EMAIL_OTP_MAX_ATTEMPTS = 5;

/** Sends a templated email (EmailService fits). */
export interface EmailSender {
  send(input: { templateKey: string; to: string; variables: Record<string, string> }): Promise<EmailDelivery>;
}

/** Consumes a rate limit (RateLimiter fits). */
export interface SendLimiter {
  consume(policy: RateLimitPolicy, subjects: RateLimitSubjects): Promise<RateLimitDecision>;
}

/** Who asks, for the audit trail and the per-IP rate limit. */
export interface EmailChallengeContext {
  /** The in-process operation or the route (`requestEmailOtpAsync`, `/svc/auth/login/email-otp/start`). */
  readonly operation: string;
  readonly ipAddress?: string | null;
}

/** A challenge to start for an address as the user typed it (validated). */
export interface EmailChallengeStart {
  readonly email: string;
  /** The client the sign-in is for (checked by the caller: first-party gate, or the request's client). */
  readonly clientId: string;
  /** A direct login's requested organization; null for a hosted login and for every signup. */
  readonly organizationId: string | null;
  /**
   * Null for a login; for a signup the pending account and the hash of its signup token (null when the
   * challenge hash is held by an authorization request bound to its browser instead).
   */
  readonly signup: { readonly data: PendingSignupData; readonly tokenHash: string | null } | null;
  readonly context: EmailChallengeContext;
}

/** What a start produced; the same whether or not an email was sent (a refused send throws instead). */
export interface StartedEmailChallenge {
  /** The secret that names the challenge (returned once; only its hash is stored). */
  readonly challengeToken: string;
  readonly challengeHash: string;
  readonly maskedEmail: string;
  readonly expiresAt: number;
  readonly nextAllowedSendAt: number;
}

/** The result of checking a code: the proved challenge (and user, for a login), or a failure. */
export type EmailChallengeCheck =
  | { readonly ok: true; readonly challenge: EmailOtpChallengeRecord; readonly userId: string | null }
  | { readonly ok: false };

export interface EmailOtpChallengesDeps {
  readonly store: PasswordlessStore;
  readonly users: Pick<UserRepository, 'findByEmailKey'>;
  /** Verifies the proved address; an account nobody had proved it for is claimed by the code's holder. */
  readonly claims: Pick<UnverifiedAccountClaim, 'claim'>;
  readonly email: EmailSender;
  readonly rateLimiter: SendLimiter;
  /** config.rateLimits.otpSend. */
  readonly sendPolicy: RateLimitPolicy;
  /** Failed code checks per address, across challenges (config.failureLimits.otpAddress). */
  readonly failures: FailureLimit;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/**
 * The email code primitives that the direct operations (PasswordlessSignIn) and the hosted pages
 * (EmailOtpSteps) share: start a challenge (rate limit, enumeration safety, the email) and check a code
 * against one (attempts counted before the comparison, single use). Neither checks the client: the direct
 * operations gate on first-party clients, the hosted pages serve the client of their request.
 *
 * Who gets a code: a login only for the address of an active account, a signup only for an address no
 * account has. Everyone else gets the same answer and a stored challenge without a code, which can never
 * verify and fails exactly like a wrong code (no email: it would reach someone who did not ask).
 */
export class EmailOtpChallenges {
  readonly #deps: EmailOtpChallengesDeps;

  constructor(deps: EmailOtpChallengesDeps) {
    this.#deps = deps;
  }

  /**
   * Starts a login or signup challenge. A send the rate limit refuses stores and sends nothing and throws
   * SvcSendRefusedError (when to ask again). Limits are counted before the account is looked up, so that
   * they behave the same for every address.
   */
  async start(input: EmailChallengeStart): Promise<StartedEmailChallenge> {
    const { store, clock, ids } = this.#deps;
    const purpose = input.signup === null ? 'login' : 'signup';
    // A 400 for an address the key refuses, whatever accounts exist (it depends on the address alone).
    const emailKey = requireEmailKey(input.email);
    const decision = await this.#deps.rateLimiter.consume(this.#deps.sendPolicy, {
      // The key in lower case: for an ASCII address the trimmed address in lower case, as it always was.
      identifier: emailKey.toLowerCase(),
      ...(input.context.ipAddress == null ? {} : { ip: input.context.ipAddress }),
    });
    const refused = refusedSendOf(decision);
    if (refused !== undefined) {
      await this.#deps.audit.record({
        kind: 'auth.email_otp.not_sent',
        actorType: 'client',
        actorId: input.clientId,
        clientId: input.clientId,
        ...(input.context.ipAddress == null ? {} : { ipAddress: input.context.ipAddress }),
        data: { route: input.context.operation, purpose, reason: 'rate_limited' },
      });
      throw new SvcSendRefusedError(refused);
    }
    const account = await this.#deps.users.findByEmailKey(emailKey);
    const loginUser = purpose === 'login' && account?.active === true ? account : undefined;
    const deliver = purpose === 'login' ? loginUser !== undefined : account === undefined;
    const now = clock.now();
    const challengeToken = ids.secret();
    const challengeHash = sha256Hex(challengeToken);
    const code = generateOtpCode(ids);
    const expiresAt = now + EMAIL_OTP_LIFETIME_MS;
    await store.insertChallenge({
      challengeHash,
      purpose,
      emailKey,
      clientId: input.clientId,
      organizationId: input.organizationId,
      codeHash: deliver ? sha256Hex(code) : null,
      attempts: 0,
      signupTokenHash: input.signup?.tokenHash ?? null,
      signup: input.signup?.data ?? null,
      createdAt: now,
      expiresAt,
      consumedAt: null,
    });

    const event = {
      ...(loginUser === undefined
        ? { actorType: 'client' as const, actorId: input.clientId }
        : { actorType: 'user' as const, actorId: loginUser.id, userId: loginUser.id }),
      clientId: input.clientId,
      ...(input.context.ipAddress == null ? {} : { ipAddress: input.context.ipAddress }),
    };
    const data = { route: input.context.operation, purpose };
    if (deliver) {
      const delivery = await this.#deps.email.send({
        templateKey: 'auth.email-otp',
        to: loginUser?.email ?? input.email.trim(),
        variables: { code, expiresInMinutes: String(EMAIL_OTP_LIFETIME_MS / MINUTE_MS) },
      });
      await this.#deps.audit.record({
        ...event,
        kind: 'auth.email_otp.sent',
        data: { ...data, delivery_id: delivery.id, delivery_status: delivery.status },
      });
    } else {
      const reason = purpose === 'login' ? 'unknown_email' : 'email_taken';
      await this.#deps.audit.record({ ...event, kind: 'auth.email_otp.not_sent', data: { ...data, reason } });
    }
    return {
      challengeToken,
      challengeHash,
      maskedEmail: maskEmail(input.email),
      expiresAt,
      nextAllowedSendAt: decision.nextAllowedAt,
    };
  }

  /** The challenge stored under this hash for `purpose` (in any state), or undefined. */
  async find(
    challengeHash: string,
    purpose: 'login' | 'signup',
  ): Promise<EmailOtpChallengeRecord | undefined> {
    const challenge = await this.#deps.store.findChallenge(challengeHash);
    return challenge?.purpose === purpose ? challenge : undefined;
  }

  /**
   * Checks `code` against a live challenge and consumes it on success. Every check counts one of the 5
   * attempts before the comparison, so the right code after five wrong ones fails. A login must still
   * belong to an active user, whose email is then verified (an unverified account is claimed: the code
   * proved the address, so what whoever held the account set up without it goes); a signup's caller creates the account
   * (which fails if the address was taken meanwhile). Every failure is audited and otherwise the same.
   * Failures also count per address across challenges: while the address is locked, the check throws
   * the 429 `too_many_attempts` error before the code is looked at.
   */
  async check(
    challenge: EmailOtpChallengeRecord,
    code: string,
    context: EmailChallengeContext,
  ): Promise<EmailChallengeCheck> {
    const attempt = await beginOtpCheck(this.#deps, {
      channel: 'email',
      address: challenge.emailKey,
      purpose: challenge.purpose,
      clientId: challenge.clientId,
      route: context.operation,
      ipAddress: context.ipAddress,
    });
    const checked = await this.#checkCode(challenge, code, context);
    if (checked.ok) await attempt.succeeded();
    return checked;
  }

  async #checkCode(
    challenge: EmailOtpChallengeRecord,
    code: string,
    context: EmailChallengeContext,
  ): Promise<EmailChallengeCheck> {
    const { store, clock } = this.#deps;
    const counted = await store.countAttempt(challenge.challengeHash, clock.now(), EMAIL_OTP_MAX_ATTEMPTS);
    const matches =
      counted !== undefined && counted.codeHash !== null && safeEqual(sha256Hex(code), counted.codeHash);
    const user =
      matches && counted.purpose === 'login'
        ? await this.#deps.users.findByEmailKey(counted.emailKey)
        : undefined;
    const proved = matches && (counted.purpose === 'signup' || user?.active === true);
    if (!proved || !(await store.consumeChallenge(challenge.challengeHash, clock.now()))) {
      await this.#audit('auth.email_otp.failed', challenge, undefined, context, {
        attempts: counted?.attempts ?? null,
      });
      return { ok: false };
    }
    if (user !== undefined) {
      await this.#deps.claims.claim(user, {
        proof: 'email_otp',
        clientId: challenge.clientId,
        ipAddress: context.ipAddress,
      });
    }
    await this.#audit('auth.email_otp.verified', challenge, user?.id, context, {});
    return { ok: true, challenge, userId: user?.id ?? null };
  }

  /** Records a verification whose challenge token names no challenge (of the expected purpose). */
  async unknown(context: EmailChallengeContext): Promise<void> {
    await this.#deps.audit.record({
      kind: 'auth.email_otp.failed',
      actorType: 'system',
      ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
      data: { route: context.operation, attempts: null },
    });
  }

  async #audit(
    kind: string,
    challenge: EmailOtpChallengeRecord,
    userId: string | undefined,
    context: EmailChallengeContext,
    extra: Record<string, unknown>,
  ): Promise<void> {
    await this.#deps.audit.record({
      kind,
      ...(userId === undefined
        ? { actorType: 'system' as const }
        : { actorType: 'user' as const, actorId: userId, userId }),
      clientId: challenge.clientId,
      ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }),
      data: { route: context.operation, purpose: challenge.purpose, ...extra },
    });
  }
}
