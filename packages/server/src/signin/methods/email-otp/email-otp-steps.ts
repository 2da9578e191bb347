import { emailSchema } from '@svc/contract';
import type { Clock } from '../../../kernel/clock.js';
import type { EmailOtpChallenges } from './email-otp-challenges.js';
import type { MagicLinks } from '../magic-link/magic-links.js';
import { AMR_OTP } from './passwordless-sign-in.js';
import { SvcSendRefusedError } from '../../../ratelimit/refused-send.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import { checkEmailCode } from './email-code-check.js';
import type {
  AuthorizeActionOutcome,
  AuthorizeStep,
  BrowserContext,
  StepError,
  StepRequest,
} from '../../flow/authorize-outcomes.js';
import { refusedSendRetry, waitingStep } from '../shared/sent-challenge.js';
import { authRequestExpiredError } from '../../flow/errors.js';
import { emailStepError } from '../../flow/step-error-messages.js';
import type { AuthRequestChallenge, AuthRequestRecord, AuthRequestStore } from '../../flow/repository.js';

/** The audit trail's name of each hosted email post (the direct operations use their own names). */
export const HOSTED_EMAIL_OPERATIONS = Object.freeze({
  codeStart: 'hosted /login/email-otp/start',
  codeVerify: 'hosted /login/email-otp/verify',
  linkStart: 'hosted /login/magic-link/start',
  linkResend: 'hosted /login/magic-link/resend',
  linkOpen: 'hosted /magic-link',
});

export interface EmailOtpStepsDeps {
  readonly steps: Pick<AuthRequestSteps, 'load' | 'stepRequest' | 'completeAuthentication' | 'recordFailure'>;
  readonly requests: Pick<AuthRequestStore, 'transition'>;
  readonly challenges: Pick<EmailOtpChallenges, 'start' | 'find' | 'check'>;
  readonly magicLinks: Pick<MagicLinks, 'issue'>;
  readonly clock: Clock;
}

/**
 * The hosted email steps of an authorization request: a code or a sign-in link sent to an address, for
 * any active client of the request (no first-party gate: consent follows for third-party clients).
 *
 * | from | post | to |
 * |---|---|---|
 * | any unfinished status | /login/email-otp/start, valid address | pending, challenge `email_otp` (the enter-code step) |
 * | any unfinished status | /login/magic-link/start, valid address | pending, challenge `magic_link` ("check your email") |
 * | pending, challenge `magic_link` | /login/magic-link/resend | pending, a new `magic_link` challenge |
 * | pending, challenge `email_otp` | /login/email-otp/verify, right code | as after a password (completeAuthentication) |
 * | pending, challenge `email_otp` | /login/email-otp/verify, anything else | the enter-code step again, 400 |
 * | pending, challenge `email_otp` | /login/email-otp/verify while the address is locked | the enter-code step again, 429 |
 *
 * The link itself is opened by MagicLinkLanding. The challenge token never leaves the server: the
 * request (bound to its browser) holds its hash. An address without an active account looks exactly
 * like the others and never verifies (no email is sent to it). A send the rate limit refuses (alike for
 * every address) changes nothing and says so: `resend_too_soon` with when to ask again.
 */
export class EmailOtpSteps {
  readonly #deps: EmailOtpStepsDeps;

  constructor(deps: EmailOtpStepsDeps) {
    this.#deps = deps;
  }

  /** GET /login/email-otp: the address form, prefilled with the request's email or login_hint. */
  async emailStep(requestId: string | undefined, browser: BrowserContext): Promise<AuthorizeStep> {
    const request = await this.#deps.steps.load(requestId, browser);
    return {
      kind: 'email_sign_in',
      request: await this.#deps.steps.stepRequest(request),
      email: request.email ?? request.loginHint,
    };
  }

  /** POST /login/email-otp/start: emails a code (active accounts only) and waits for it on the request. */
  startCode(
    requestId: string | undefined,
    browser: BrowserContext,
    email: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    return this.#start(requestId, browser, email, 'code');
  }

  /** POST /login/magic-link/start: emails a link bound to this request (active accounts only). */
  startLink(
    requestId: string | undefined,
    browser: BrowserContext,
    email: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    return this.#start(requestId, browser, email, 'link');
  }

  /** POST /login/magic-link/resend: a new link to the address the request waits on. */
  async resendLink(requestId: string | undefined, browser: BrowserContext): Promise<AuthorizeActionOutcome> {
    const request = await this.#deps.steps.load(requestId, browser);
    if (request.status !== 'pending' || request.challenge?.kind !== 'magic_link' || request.email === null) {
      return { kind: 'next', requestId: request.id };
    }
    const stepRequest = await this.#deps.steps.stepRequest(request);
    return this.#send(
      request,
      browser,
      stepRequest,
      request.email,
      'link',
      HOSTED_EMAIL_OPERATIONS.linkResend,
    );
  }

  /**
   * POST /login/email-otp/verify: the code of the request's `email_otp` challenge; success signs in.
   * `beforeSignIn` runs once the code is proved, before the sign-in continues.
   */
  async verifyCode(
    requestId: string | undefined,
    browser: BrowserContext,
    code: string | undefined,
    beforeSignIn?: (userId: string) => Promise<void>,
  ): Promise<AuthorizeActionOutcome> {
    const result = await checkEmailCode(this.#deps, {
      requestId,
      browser,
      code,
      kind: 'email_otp',
      operation: HOSTED_EMAIL_OPERATIONS.codeVerify,
    });
    if ('outcome' in result) return result.outcome;
    const { request, retry, checked } = result;
    if (checked?.ok !== true || checked.userId === null) {
      await this.#deps.steps.recordFailure(request, browser, 'email_otp');
      return retry;
    }
    // The code proved the address: the caller may act for the user before the sign-in continues (an
    // invitation to accept must count for the organization choice that follows).
    await beforeSignIn?.(checked.userId);
    return this.#deps.steps.completeAuthentication(request, browser, {
      userId: checked.userId,
      amr: [AMR_OTP],
      method: 'email_otp',
    });
  }

  async #start(
    requestId: string | undefined,
    browser: BrowserContext,
    rawEmail: string | undefined,
    channel: 'code' | 'link',
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#deps.steps.load(requestId, browser);
    // The client must still be active before anything is emailed on its behalf.
    const stepRequest = await this.#deps.steps.stepRequest(request);
    const typed = rawEmail?.trim() ?? '';
    const retry = (error: StepError): AuthorizeActionOutcome => ({
      kind: 'retry',
      step: { kind: 'email_sign_in', request: stepRequest, email: typed === '' ? null : typed },
      error,
    });
    if (typed === '') return retry('email_required');
    const email = emailSchema.safeParse(typed);
    if (!email.success) return retry(emailStepError(typed));
    const operation =
      channel === 'code' ? HOSTED_EMAIL_OPERATIONS.codeStart : HOSTED_EMAIL_OPERATIONS.linkStart;
    return this.#send(request, browser, stepRequest, email.data, channel, operation);
  }

  /**
   * Sends the code or link and makes the request wait for it (whatever it waited for before). A send
   * the rate limit refused (a quick "send a new code") changes nothing: a request that already waits for
   * the same kind at the same address shows that step again (the code or link already sent keeps
   * working), any other the address form; both with `resend_too_soon`.
   */
  async #send(
    request: AuthRequestRecord,
    browser: BrowserContext,
    stepRequest: StepRequest,
    email: string,
    channel: 'code' | 'link',
    operation: string,
  ): Promise<AuthorizeActionOutcome> {
    let challenge: AuthRequestChallenge;
    try {
      challenge = await this.#dispatch(request, email, channel, {
        operation,
        ipAddress: browser.ipAddress ?? null,
      });
    } catch (error) {
      if (!(error instanceof SvcSendRefusedError)) throw error;
      const waiting =
        request.status === 'pending' &&
        request.challenge?.kind === (channel === 'code' ? 'email_otp' : 'magic_link') &&
        request.email?.toLowerCase() === email.toLowerCase()
          ? waitingStep(stepRequest, request.challenge)
          : undefined;
      return refusedSendRetry(
        waiting ?? { kind: 'email_sign_in', request: stepRequest, email },
        error.refused,
      );
    }
    // As identifying again: whoever signed in before is forgotten; the request now waits for this.
    const change = {
      status: 'pending',
      email,
      userId: null,
      organizationId: null,
      amr: null,
      authTime: null,
      challenge,
    } as const;
    if (!(await this.#deps.requests.transition(request.id, request.status, change, this.#deps.clock.now()))) {
      throw authRequestExpiredError();
    }
    return { kind: 'next', requestId: request.id };
  }

  /** Emails the code or link: the challenge the request should wait for. A refused send throws. */
  async #dispatch(
    request: AuthRequestRecord,
    email: string,
    channel: 'code' | 'link',
    context: { readonly operation: string; readonly ipAddress: string | null },
  ): Promise<AuthRequestChallenge> {
    const base = { email, clientId: request.clientId, organizationId: null, context };
    if (channel === 'code') {
      const started = await this.#deps.challenges.start({ ...base, signup: null });
      return {
        kind: 'email_otp',
        hash: started.challengeHash,
        target: started.maskedEmail,
        resendAvailableAt: started.nextAllowedSendAt,
      };
    }
    const issued = await this.#deps.magicLinks.issue({ ...base, authRequestId: request.id });
    return {
      kind: 'magic_link',
      hash: issued.linkHash,
      target: issued.maskedEmail,
      resendAvailableAt: issued.nextAllowedSendAt,
    };
  }
}
