import { svcSignupRequestSchema } from '@svc/contract';
import type { Clock } from '../../../kernel/clock.js';
import type { FoundPhoneChallenge, PhoneOtpChallenges } from './phone-otp-challenges.js';
import type { PhoneOtpPurpose } from './repository.js';
import { AMR_SMS, createPhoneAccount } from './phone-otp-service.js';
import type { SignupService } from '../../signup.js';
import { SvcSendRefusedError } from '../../../ratelimit/refused-send.js';
import { SmsProviderError } from '../../../sms/verify-client.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import {
  refusedRetry,
  type AuthorizeActionOutcome,
  type AuthorizeStep,
  type BrowserContext,
  type StepError,
} from '../../flow/authorize-outcomes.js';
import { refusedSendRetry, waitingStep } from '../shared/sent-challenge.js';
import { restartSignIn } from '../../flow/restart-sign-in.js';
import type { AuthRequestRecord, AuthRequestStore } from '../../flow/repository.js';

/** What the phone signup form shows again after an error. */
export interface PhoneSignupFormValues {
  readonly displayName: string;
  readonly phoneNumber: string;
  readonly organizationName: string;
}

/** The audit trail's name of each hosted phone post (the direct operations use their own names). */
export const HOSTED_PHONE_OPERATIONS = Object.freeze({
  loginStart: 'hosted /login/phone-otp/start',
  loginVerify: 'hosted /login/phone-otp/verify',
  signupStart: 'hosted /signup/phone-otp/start',
  signupVerify: 'hosted /signup/phone-otp/verify',
});

/** A typed code: six digits; spaces (as in "123 456") are ignored. */
const CODE = /^[0-9]{6}$/;

export interface PhoneOtpStepsDeps {
  readonly steps: Pick<AuthRequestSteps, 'load' | 'stepRequest' | 'completeAuthentication' | 'recordFailure'>;
  readonly requests: Pick<AuthRequestStore, 'transition'>;
  readonly challenges: Pick<PhoneOtpChallenges, 'normalize' | 'start' | 'find' | 'check'>;
  /** Creates the account of a verified phone signup. */
  readonly signup: Pick<SignupService, 'signUpPasswordless'>;
  readonly clock: Clock;
}

/** The form of a phone signup post, as typed. */
export interface PhoneSignupForm {
  readonly displayName: string | undefined;
  readonly phoneNumber: string | undefined;
  readonly organizationName: string | undefined;
}

/**
 * The hosted phone steps of an authorization request, for any active client of the request (the hosted
 * flow needs no first-party gate: consent follows for third-party clients). Wired only when the SMS
 * provider is configured.
 *
 * | from | post | to |
 * |---|---|---|
 * | any unfinished status | /login/phone-otp/start, valid number | pending, challenge `phone_otp` (the enter-code step) |
 * | any unfinished status | /signup/phone-otp/start, valid form | pending, challenge `phone_otp_signup` |
 * | pending with that challenge | …/verify, provider approves | as after a password (completeAuthentication) |
 * | pending with that challenge | …/verify, anything else | the enter-code step again, 400 |
 * | pending with that challenge | …/verify while the number is locked | the enter-code step again, 429 |
 *
 * The challenge token never leaves the server: the request (bound to its browser) holds its hash. A
 * login for a number without an active account, and a signup for a number that has one, look exactly
 * like the others and never verify (PhoneOtpChallenges texts nobody in those cases).
 */
export class PhoneOtpSteps {
  readonly #deps: PhoneOtpStepsDeps;

  constructor(deps: PhoneOtpStepsDeps) {
    this.#deps = deps;
  }

  /** GET /login/phone-otp: the number form, prefilled with the number of a code already sent. */
  async loginStep(requestId: string | undefined, browser: BrowserContext): Promise<AuthorizeStep> {
    const request = await this.#deps.steps.load(requestId, browser);
    const pending = await this.#pendingChallenge(request, 'phone_otp', 'login');
    return {
      kind: 'phone_number',
      request: await this.#deps.steps.stepRequest(request),
      phoneNumber: pending?.phoneE164 ?? null,
    };
  }

  /** POST /login/phone-otp/start: texts a code (known numbers only) and waits for it on the request. */
  async startLogin(
    requestId: string | undefined,
    browser: BrowserContext,
    phoneNumber: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#deps.steps.load(requestId, browser);
    const typed = phoneNumber?.trim() ?? '';
    // The client must still be active before anything is texted on its behalf.
    const form: AuthorizeStep = {
      kind: 'phone_number',
      request: await this.#deps.steps.stepRequest(request),
      phoneNumber: typed === '' ? null : typed,
    };
    const number = this.#number(typed);
    if (!number.ok) return { kind: 'retry', step: form, error: number.error };
    return this.#startChallenge(request, browser, number.e164, null, form);
  }

  /** POST /login/phone-otp/verify: the code of the request's `phone_otp` challenge; success signs in. */
  async verifyLogin(
    requestId: string | undefined,
    browser: BrowserContext,
    code: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#deps.steps.load(requestId, browser);
    const checked = await this.#verify(request, browser, code, 'login');
    if (checked.kind !== 'verified') return checked.outcome;
    if (checked.userId === null) return checked.retry('code_invalid');
    return this.#deps.steps.completeAuthentication(request, browser, {
      userId: checked.userId,
      amr: [AMR_SMS],
      method: 'phone_otp',
    });
  }

  /** GET /signup/phone-otp: the phone signup form, prefilled from a signup code already sent. */
  async signupStep(requestId: string | undefined, browser: BrowserContext): Promise<AuthorizeStep> {
    const request = await this.#deps.steps.load(requestId, browser);
    const pending = await this.#pendingChallenge(request, 'phone_otp_signup', 'signup');
    return {
      kind: 'phone_signup',
      request: await this.#deps.steps.stepRequest(request),
      values: {
        displayName: pending?.signupData?.displayName ?? '',
        phoneNumber: pending?.phoneE164 ?? '',
        organizationName: pending?.signupData?.organizationName ?? '',
      },
    };
  }

  /**
   * POST /signup/phone-otp/start: checks the form (SvcSignupRequest's name and organization rules),
   * texts a code to a number without an account and keeps the pending account in the challenge row.
   */
  async startSignup(
    requestId: string | undefined,
    browser: BrowserContext,
    form: PhoneSignupForm,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#deps.steps.load(requestId, browser);
    const values: PhoneSignupFormValues = {
      displayName: form.displayName?.trim() ?? '',
      phoneNumber: form.phoneNumber?.trim() ?? '',
      organizationName: form.organizationName?.trim() ?? '',
    };
    // The client must still be active before anything is texted on its behalf.
    const formStep: AuthorizeStep = {
      kind: 'phone_signup',
      request: await this.#deps.steps.stepRequest(request),
      values,
    };
    const retry = (error: StepError): AuthorizeActionOutcome => ({ kind: 'retry', step: formStep, error });
    const { shape } = svcSignupRequestSchema;
    const displayName = shape.displayName.safeParse(values.displayName);
    if (!displayName.success) {
      return retry(values.displayName === '' ? 'display_name_required' : 'display_name_invalid');
    }
    const number = this.#number(values.phoneNumber);
    if (!number.ok) return retry(number.error);
    const organizationName = shape.organizationName.safeParse(values.organizationName);
    if (!organizationName.success) return retry('organization_name_invalid');
    const data = {
      displayName: displayName.data,
      organizationName: organizationName.data,
      customFields: null,
    };
    return this.#startChallenge(request, browser, number.e164, data, formStep);
  }

  /** POST /signup/phone-otp/verify: the code of the request's signup challenge; success creates the account. */
  async verifySignup(
    requestId: string | undefined,
    browser: BrowserContext,
    code: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#deps.steps.load(requestId, browser);
    const checked = await this.#verify(request, browser, code, 'signup');
    if (checked.kind !== 'verified') return checked.outcome;
    const created = await createPhoneAccount(this.#deps.signup, checked.challenge);
    if (created === undefined) {
      await this.#deps.steps.recordFailure(request, browser, 'phone_otp_signup');
      return checked.retry('code_invalid');
    }
    return this.#deps.steps.completeAuthentication(request, browser, {
      userId: created.userId,
      amr: [AMR_SMS],
      method: 'phone_otp_signup',
    });
  }

  #number(typed: string): { ok: true; e164: string } | { ok: false; error: StepError } {
    if (typed === '') return { ok: false, error: 'phone_required' };
    const normalized = this.#deps.challenges.normalize(typed);
    if (normalized.ok) return { ok: true, e164: normalized.e164 };
    return {
      ok: false,
      error: normalized.reason === 'country_refused' ? 'phone_country_refused' : 'phone_invalid',
    };
  }

  /**
   * Texts the code and makes the request wait for it. A provider failure shows `form` again; so does a
   * send the rate limit refused (`resend_too_soon`), unless the request already waits for a code of the
   * same kind at the same number: then it keeps waiting and shows that step again.
   */
  async #startChallenge(
    request: AuthRequestRecord,
    browser: BrowserContext,
    e164: string,
    signup: { displayName: string; organizationName: string | null; customFields: null } | null,
    form: AuthorizeStep,
  ): Promise<AuthorizeActionOutcome> {
    const kind = signup === null ? 'phone_otp' : 'phone_otp_signup';
    let started;
    try {
      started = await this.#deps.challenges.start({
        e164,
        clientId: request.clientId,
        organizationId: null,
        signup: signup === null ? null : { data: signup, tokenHash: null },
        context: {
          operation:
            signup === null ? HOSTED_PHONE_OPERATIONS.loginStart : HOSTED_PHONE_OPERATIONS.signupStart,
          ipAddress: browser.ipAddress ?? null,
        },
      });
    } catch (error) {
      // The provider refused or failed; the form comes back (only numbers that get a text can see this).
      if (error instanceof SmsProviderError) return { kind: 'retry', step: form, error: 'sms_unavailable' };
      if (!(error instanceof SvcSendRefusedError)) throw error;
      const pending = await this.#pendingChallenge(request, kind, signup === null ? 'login' : 'signup');
      const waiting =
        pending?.phoneE164 === e164 && request.challenge !== null
          ? waitingStep(form.request, request.challenge)
          : undefined;
      return refusedSendRetry(waiting ?? form, error.refused);
    }
    await restartSignIn(
      this.#deps.requests,
      request,
      {
        kind,
        hash: started.challengeHash,
        target: started.maskedPhoneNumber,
        resendAvailableAt: started.nextAllowedSendAt,
      },
      this.#deps.clock.now(),
    );
    return { kind: 'next', requestId: request.id };
  }

  /** The request's pending challenge of this kind, when its row still exists. */
  async #pendingChallenge(
    request: AuthRequestRecord,
    kind: 'phone_otp' | 'phone_otp_signup',
    purpose: PhoneOtpPurpose,
  ) {
    if (request.status !== 'pending' || request.challenge?.kind !== kind) return undefined;
    return this.#deps.challenges.find(request.challenge.hash, purpose);
  }

  /**
   * Checks a typed code against the request's challenge of `purpose`. A request that waits for nothing
   * of the kind goes to its current step; a failure is the enter-code step again with one error.
   */
  async #verify(
    request: AuthRequestRecord,
    browser: BrowserContext,
    code: string | undefined,
    purpose: PhoneOtpPurpose,
  ): Promise<
    | { kind: 'done'; outcome: AuthorizeActionOutcome }
    | {
        kind: 'verified';
        challenge: FoundPhoneChallenge;
        userId: string | null;
        retry: (error: StepError) => AuthorizeActionOutcome;
      }
  > {
    // The request's challenge kind, also the step's name in the audit trail.
    const kind = purpose === 'login' ? 'phone_otp' : 'phone_otp_signup';
    const challenge = request.challenge;
    if (request.status !== 'pending' || challenge?.kind !== kind) {
      return { kind: 'done', outcome: { kind: 'next', requestId: request.id } };
    }
    const step: AuthorizeStep = {
      kind: 'enter_code',
      request: await this.#deps.steps.stepRequest(request),
      challenge: kind,
      target: challenge.target,
    };
    const retry = (error: StepError): AuthorizeActionOutcome => ({ kind: 'retry', step, error });
    const typed = (code ?? '').replace(/\s/g, '');
    if (!CODE.test(typed)) return { kind: 'done', outcome: retry('code_invalid') };
    const found = await this.#deps.challenges.find(challenge.hash, purpose);
    const failed = async (error: StepError) => {
      await this.#deps.steps.recordFailure(request, browser, kind);
      return { kind: 'done' as const, outcome: retry(error) };
    };
    if (found === undefined || found.clientId !== request.clientId) return failed('code_invalid');
    let checked;
    try {
      checked = await this.#deps.challenges.check(found, typed, {
        operation:
          purpose === 'login' ? HOSTED_PHONE_OPERATIONS.loginVerify : HOSTED_PHONE_OPERATIONS.signupVerify,
        ipAddress: browser.ipAddress ?? null,
      });
    } catch (error) {
      if (error instanceof SmsProviderError) return failed('sms_unavailable');
      return { kind: 'done', outcome: refusedRetry(error, step) };
    }
    if (!checked.ok) return failed('code_invalid');
    return { kind: 'verified', challenge: checked.challenge, userId: checked.userId, retry };
  }
}
