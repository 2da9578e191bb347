import type { SvcLoginResult } from '@svc/contract';
import type { ClientRecord, UserRecord, UserRepository } from '../admin/repository.js';
import { emailLookupKey } from '../admin/email-key.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { EmailDelivery } from '../email/email-service.js';
import { MINUTE_MS, type Clock } from '../kernel/clock.js';
import { safeEqual, sha256Hex } from '../kernel/crypto.js';
import { SvcPublicAuthError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import { validate } from '../kernel/validation.js';
import type { RateLimitDecision, RateLimitSubjects } from '../ratelimit/rate-limiter.js';
import type { RateLimitPolicy } from '../ratelimit/rules.js';
import type { DirectCallContext, DirectSignIn } from '../signin/direct-sign-in.js';
import { generateOtpCode, maskEmail } from './otp-code.js';
import { callContext, ip, toIso, type PasswordlessCallContext } from './sign-in-direct.js';
import type { PasswordlessStore } from './repository.js';
import {
  svcEmailOtpStartRequestSchema,
  svcEmailOtpVerifyRequestSchema,
  svcMagicLinkCompleteRequestSchema,
  svcMagicLinkStartRequestSchema,
  type SvcEmailOtpStartRequest,
  type SvcEmailOtpStartResult,
  type SvcEmailOtpVerifyRequest,
  type SvcMagicLinkCompleteRequest,
  type SvcMagicLinkStartRequest,
  type SvcMagicLinkStartResult,
} from './schemas.js';

/** Email OTP challenges live 10 minutes and allow 5 attempts. */
export const EMAIL_OTP_LIFETIME_MS = 10 * MINUTE_MS;
export const EMAIL_OTP_MAX_ATTEMPTS = 5;
/** Magic links live 15 minutes. */
export const MAGIC_LINK_LIFETIME_MS = 15 * MINUTE_MS;

/** RFC 8176 `otp`: a one-time password (the emailed code). */
export const AMR_OTP = 'otp';
/**
 * A magic link proves control of the mailbox, like the code, but is no password typed by the user; RFC
 * 8176 has no email value, so we record it as `email` (the registry allows new values; DECISIONS).
 */
export const AMR_EMAIL_LINK = 'email';

export type { PasswordlessCallContext } from './sign-in-direct.js';

export interface PasswordlessSignInDeps {
  readonly store: PasswordlessStore;
  readonly users: Pick<UserRepository, 'findByEmailKey' | 'findById'>;
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient' | 'completeSignIn'>;
  readonly email: {
    send(input: {
      templateKey: string;
      to: string;
      variables: Record<string, string>;
    }): Promise<EmailDelivery>;
  };
  readonly rateLimiter: {
    consume(policy: RateLimitPolicy, subjects: RateLimitSubjects): Promise<RateLimitDecision>;
  };
  readonly policies: { readonly otpSend: RateLimitPolicy; readonly magicLinkSend: RateLimitPolicy };
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
  /** `{PublicOrigin}{authBase}`: the emailed link is `{this}/magic-link?token=…` (DECISIONS.md). */
  readonly authUrl: string;
}

function invalidCodeError(): SvcPublicAuthError {
  return new SvcPublicAuthError('invalid_code', 'The code is not valid or has expired.', 400);
}

function invalidLinkError(): SvcPublicAuthError {
  return new SvcPublicAuthError('invalid_token', 'The sign-in link is not valid or has expired.', 400);
}

/**
 * Email OTP and magic-link sign-in (SPEC.md SvcAuthService RequestEmailOtpAsync, VerifyEmailOtpAsync,
 * RequestMagicLinkAsync, CompleteMagicLinkAsync). First-party clients only, with the same gate and audit
 * as password login. Starts are enumeration-safe: the answer depends only on the request and the rate
 * limit, never on whether the address has an account; only known, active users are emailed.
 */
export class PasswordlessSignIn {
  readonly #deps: PasswordlessSignInDeps;

  constructor(deps: PasswordlessSignInDeps) {
    this.#deps = deps;
  }

  /** RequestEmailOtpAsync: a challenge token always; a code is emailed only to a known, active user. */
  async requestEmailOtpAsync(
    request: SvcEmailOtpStartRequest,
    context?: PasswordlessCallContext,
  ): Promise<SvcEmailOtpStartResult> {
    const input = validate(svcEmailOtpStartRequestSchema, request, 'email OTP start request');
    const call = callContext('requestEmailOtpAsync', context);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const { user, decision, now } = await this.#prepareSend(this.#deps.policies.otpSend, input.email, call);
    const challengeToken = this.#deps.ids.secret();
    const code = generateOtpCode(this.#deps.ids);
    const deliver = user !== undefined && decision.allowed;
    const expiresAt = now + EMAIL_OTP_LIFETIME_MS;
    // An unknown address (or a refused send) still gets a stored challenge, with no code: it can never
    // verify, and its verification fails exactly like a wrong code.
    await this.#deps.store.insertChallenge({
      challengeHash: sha256Hex(challengeToken),
      purpose: 'login',
      emailKey: emailLookupKey(input.email),
      clientId: client.clientId,
      organizationId: input.organizationId,
      codeHash: deliver ? sha256Hex(code) : null,
      attempts: 0,
      signupTokenHash: null,
      signup: null,
      createdAt: now,
      expiresAt,
      consumedAt: null,
    });
    if (deliver) {
      const delivery = await this.#deps.email.send({
        templateKey: 'auth.email-otp',
        to: user.email,
        variables: { code, expiresInMinutes: String(EMAIL_OTP_LIFETIME_MS / MINUTE_MS) },
      });
      await this.#auditSend('auth.email_otp.sent', user, client.clientId, call, delivery);
    } else {
      await this.#auditSkipped('auth.email_otp.not_sent', user, client.clientId, call, decision);
    }
    return {
      challengeToken,
      maskedEmail: maskEmail(input.email),
      expiresAt: toIso(expiresAt),
      nextAllowedSendAt: toIso(decision.nextAllowedAt),
    };
  }

  /**
   * VerifyEmailOtpAsync: every failure (unknown, used or expired challenge, wrong code, attempts used up)
   * is the same 400 `invalid_code`. Each attempt is counted before the code is compared.
   */
  async verifyEmailOtpAsync(
    request: SvcEmailOtpVerifyRequest,
    context?: PasswordlessCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcEmailOtpVerifyRequestSchema, request, 'email OTP verify request');
    const call = callContext('verifyEmailOtpAsync', context);
    const now = this.#deps.clock.now();
    const challengeHash = sha256Hex(input.challengeToken);
    const challenge = await this.#deps.store.countAttempt(challengeHash, now, EMAIL_OTP_MAX_ATTEMPTS);
    const matches =
      challenge !== undefined &&
      challenge.purpose === 'login' &&
      challenge.codeHash !== null &&
      safeEqual(sha256Hex(input.code), challenge.codeHash);
    const user = matches ? await this.#deps.users.findByEmailKey(challenge.emailKey) : undefined;
    if (!matches || user === undefined || !user.active) {
      await this.#deps.audit.record({
        kind: 'auth.email_otp.failed',
        actorType: 'system',
        ...(challenge === undefined ? {} : { clientId: challenge.clientId }),
        ...ip(call),
        data: { route: call.operation, attempts: challenge?.attempts ?? null },
      });
      throw invalidCodeError();
    }
    const client = await this.#deps.direct.requireFirstPartyClient(challenge.clientId, call);
    if (!(await this.#deps.store.consumeChallenge(challengeHash, now))) throw invalidCodeError();
    return this.#signInVerified(
      user,
      client,
      challenge.organizationId,
      'auth.email_otp.verified',
      AMR_OTP,
      call,
      now,
    );
  }

  /** RequestMagicLinkAsync: the same answer for every address; the link is emailed to known users only. */
  async requestMagicLinkAsync(
    request: SvcMagicLinkStartRequest,
    context?: PasswordlessCallContext,
  ): Promise<SvcMagicLinkStartResult> {
    const input = validate(svcMagicLinkStartRequestSchema, request, 'magic link start request');
    const call = callContext('requestMagicLinkAsync', context);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const { user, decision, now } = await this.#prepareSend(
      this.#deps.policies.magicLinkSend,
      input.email,
      call,
    );
    const expiresAt = now + MAGIC_LINK_LIFETIME_MS;
    if (user !== undefined && decision.allowed) {
      const token = this.#deps.ids.secret();
      await this.#deps.store.insertMagicLink({
        tokenHash: sha256Hex(token),
        userId: user.id,
        clientId: client.clientId,
        organizationId: input.organizationId,
        createdAt: now,
        expiresAt,
        consumedAt: null,
      });
      const delivery = await this.#deps.email.send({
        templateKey: 'auth.magic-link',
        to: user.email,
        variables: {
          link: `${this.#deps.authUrl}/magic-link?token=${encodeURIComponent(token)}`,
          expiresInMinutes: String(MAGIC_LINK_LIFETIME_MS / MINUTE_MS),
        },
      });
      await this.#auditSend('auth.magic_link.sent', user, client.clientId, call, delivery);
    } else {
      await this.#auditSkipped('auth.magic_link.not_sent', user, client.clientId, call, decision);
    }
    return {
      maskedEmail: maskEmail(input.email),
      expiresAt: toIso(expiresAt),
      nextAllowedSendAt: toIso(decision.nextAllowedAt),
    };
  }

  /**
   * CompleteMagicLinkAsync: single use, bound to the client that requested it. The client is checked
   * first (the first-party gate), then the link is consumed; a link of another client is not consumed.
   */
  async completeMagicLinkAsync(
    request: SvcMagicLinkCompleteRequest,
    context?: PasswordlessCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcMagicLinkCompleteRequestSchema, request, 'magic link complete request');
    const call = callContext('completeMagicLinkAsync', context);
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, call);
    const now = this.#deps.clock.now();
    const tokenHash = sha256Hex(input.token);
    const link = await this.#deps.store.findMagicLink(tokenHash, now);
    const user =
      link !== undefined && link.clientId === client.clientId
        ? await this.#deps.users.findById(link.userId)
        : undefined;
    const consumed =
      link !== undefined && user !== undefined && user.active
        ? await this.#deps.store.consumeMagicLink(tokenHash, now)
        : false;
    if (link === undefined || user === undefined || !consumed) {
      await this.#deps.audit.record({
        kind: 'auth.magic_link.failed',
        actorType: 'system',
        clientId: client.clientId,
        ...ip(call),
        data: { route: call.operation },
      });
      throw invalidLinkError();
    }
    return this.#signInVerified(
      user,
      client,
      link.organizationId,
      'auth.magic_link.completed',
      AMR_EMAIL_LINK,
      call,
      now,
    );
  }

  /** The user behind the address (active only) and the rate-limit decision, counted for every address. */
  async #prepareSend(policy: RateLimitPolicy, email: string, call: DirectCallContext) {
    const user = await this.#deps.users.findByEmailKey(emailLookupKey(email));
    const decision = await this.#deps.rateLimiter.consume(policy, {
      identifier: email.trim().toLowerCase(),
      ...(call.ipAddress == null ? {} : { ip: call.ipAddress }),
    });
    return { user: user?.active === true ? user : undefined, decision, now: this.#deps.clock.now() };
  }

  async #auditSend(
    kind: string,
    user: UserRecord,
    clientId: string,
    call: DirectCallContext,
    delivery: EmailDelivery,
  ): Promise<void> {
    await this.#deps.audit.record({
      kind,
      actorType: 'user',
      actorId: user.id,
      userId: user.id,
      clientId,
      ...ip(call),
      data: { route: call.operation, delivery_id: delivery.id, delivery_status: delivery.status },
    });
  }

  async #auditSkipped(
    kind: string,
    user: UserRecord | undefined,
    clientId: string,
    call: DirectCallContext,
    decision: RateLimitDecision,
  ): Promise<void> {
    await this.#deps.audit.record({
      kind,
      actorType: 'system',
      clientId,
      ...(user === undefined ? {} : { userId: user.id }),
      ...ip(call),
      data: { route: call.operation, reason: decision.allowed ? 'unknown_email' : 'rate_limited' },
    });
  }

  /**
   * The address proved itself (code or link): mark the email verified, record the event and sign in.
   * The client was checked first-party when the call began, so its record is passed on as checked.
   */
  async #signInVerified(
    user: UserRecord,
    client: ClientRecord,
    organizationId: string | null,
    kind: 'auth.email_otp.verified' | 'auth.magic_link.completed',
    amr: string,
    call: DirectCallContext,
    now: number,
  ): Promise<SvcLoginResult> {
    await this.#deps.store.markEmailVerified(user.id, now);
    await this.#deps.audit.record({
      kind,
      actorType: 'user',
      actorId: user.id,
      userId: user.id,
      clientId: client.clientId,
      ...ip(call),
      data: { route: call.operation },
    });
    return this.#deps.direct.completeSignIn(
      { userId: user.id, client, requestedOrganizationId: organizationId, amr, authTime: now },
      call,
    );
  }
}
