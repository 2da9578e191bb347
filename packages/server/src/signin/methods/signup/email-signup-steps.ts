import { emailSchema, svcSignupRequestSchema } from '@svc/contract';
import type { Clock } from '../../../kernel/clock.js';
import type { EmailOtpChallenges } from '../email-otp/email-otp-challenges.js';
import { AMR_OTP } from '../email-otp/passwordless-sign-in.js';
import { createPasswordlessAccount } from './passwordless-signup.js';
import { SvcSendRefusedError } from '../../../ratelimit/refused-send.js';
import type { SignupService } from '../../signup.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import { checkEmailCode } from '../email-otp/email-code-check.js';
import type {
  AuthorizeActionOutcome,
  AuthorizeStep,
  BrowserContext,
  StepError,
  StepRequest,
} from '../../flow/authorize-outcomes.js';
import { refusedSendRetry, waitingStep } from '../shared/sent-challenge.js';
import type { AuthRequestRecord, AuthRequestStore } from '../../flow/repository.js';
import { restartSignIn } from '../../flow/restart-sign-in.js';
import { emailStepError } from '../../flow/step-error-messages.js';
import { signupFormValues, type SignupForm, type SignupFormValues } from './signup-steps.js';

/** The audit trail's name of each post (the direct operations use their own names). */
const OPERATIONS = Object.freeze({
  start: 'headless /signup/email-otp/start',
  verify: 'headless /signup/email-otp/verify',
});

export interface EmailSignupStepsDeps {
  readonly steps: Pick<AuthRequestSteps, 'load' | 'stepRequest' | 'completeAuthentication' | 'recordFailure'>;
  readonly requests: Pick<AuthRequestStore, 'transition'>;
  readonly challenges: Pick<EmailOtpChallenges, 'start' | 'find' | 'check'>;
  /** Creates the account of a verified signup. */
  readonly signup: Pick<SignupService, 'signUpPasswordless'>;
  readonly clock: Clock;
}

/** The form of an email signup, as typed (no password: the emailed code proves the address). */
export type EmailSignupForm = Omit<SignupForm, 'password'>;

/**
 * Signup with an emailed code on an authorization request (the headless /signup/email-otp routes), the
 * email twin of the phone signup steps:
 *
 * | from | post | to |
 * |---|---|---|
 * | any unfinished status | …/start, valid form | pending, challenge `email_otp_signup` (the enter-code step) |
 * | pending with that challenge | …/verify, right code | a new passwordless account, signed in (completeAuthentication) |
 * | pending with that challenge | …/verify, anything else | the enter-code step again, 400 |
 * | pending with that challenge | …/verify while the address is locked | the enter-code step again, 429 |
 *
 * An address that already has an account looks exactly like the others and never verifies
 * (EmailOtpChallenges mails nobody then). A send the rate limit refuses changes nothing and says so
 * (`resend_too_soon`). The challenge token never leaves the server: the request, bound to its browser,
 * holds its hash, so no signup token is needed.
 */
export class EmailSignupSteps {
  readonly #deps: EmailSignupStepsDeps;

  constructor(deps: EmailSignupStepsDeps) {
    this.#deps = deps;
  }

  /** Checks the form (SvcSignupRequest's rules) and emails a code to an address without an account. */
  async start(
    requestId: string | undefined,
    browser: BrowserContext,
    form: EmailSignupForm,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#deps.steps.load(requestId, browser);
    const stepRequest = await this.#deps.steps.stepRequest(request);
    const values = signupFormValues(form);
    const retry = (error: StepError): AuthorizeActionOutcome => ({
      kind: 'retry',
      step: { kind: 'signup', request: stepRequest, values },
      error,
    });
    const { shape } = svcSignupRequestSchema;
    const displayName = shape.displayName.safeParse(values.displayName);
    if (!displayName.success) {
      return retry(values.displayName === '' ? 'display_name_required' : 'display_name_invalid');
    }
    if (values.email === '') return retry('email_required');
    const email = emailSchema.safeParse(values.email);
    if (!email.success) return retry(emailStepError(values.email));
    const organizationName = shape.organizationName.safeParse(values.organizationName);
    if (!organizationName.success) return retry('organization_name_invalid');
    let started;
    try {
      started = await this.#deps.challenges.start({
        email: email.data,
        clientId: request.clientId,
        organizationId: null,
        signup: {
          data: {
            displayName: displayName.data,
            email: email.data,
            organizationName: organizationName.data ?? null,
            customFields: null,
          },
          tokenHash: null,
        },
        context: { operation: OPERATIONS.start, ipAddress: browser.ipAddress ?? null },
      });
    } catch (error) {
      if (!(error instanceof SvcSendRefusedError)) throw error;
      return refusedSendRetry(
        await this.#afterRefusal(request, stepRequest, email.data, values),
        error.refused,
      );
    }
    await restartSignIn(
      this.#deps.requests,
      request,
      {
        kind: 'email_otp_signup',
        hash: started.challengeHash,
        target: started.maskedEmail,
        resendAvailableAt: started.nextAllowedSendAt,
      },
      this.#deps.clock.now(),
    );
    return { kind: 'next', requestId: request.id };
  }

  /**
   * What a refused send shows: the enter-code step when the request already waits for a signup code to
   * the same address (that code keeps working), else the form as typed. Nothing changes either way.
   */
  async #afterRefusal(
    request: AuthRequestRecord,
    stepRequest: StepRequest,
    email: string,
    values: SignupFormValues,
  ): Promise<AuthorizeStep> {
    const challenge = request.challenge;
    const pending =
      request.status === 'pending' && challenge?.kind === 'email_otp_signup'
        ? await this.#deps.challenges.find(challenge.hash, 'signup')
        : undefined;
    const waiting =
      challenge !== null && pending?.signup?.email.toLowerCase() === email.toLowerCase()
        ? waitingStep(stepRequest, challenge)
        : undefined;
    return waiting ?? { kind: 'signup', request: stepRequest, values };
  }

  /** The code of the request's signup challenge; success creates the account and signs it in. */
  async verify(
    requestId: string | undefined,
    browser: BrowserContext,
    code: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const result = await checkEmailCode(this.#deps, {
      requestId,
      browser,
      code,
      kind: 'email_otp_signup',
      operation: OPERATIONS.verify,
    });
    if ('outcome' in result) return result.outcome;
    const { request, retry, checked } = result;
    const data = checked?.ok === true ? checked.challenge.signup : null;
    const created =
      data === null
        ? undefined
        : await createPasswordlessAccount(this.#deps.signup, {
            displayName: data.displayName,
            email: data.email,
            phoneE164: null,
            customFields: data.customFields,
            organizationName: data.organizationName,
          });
    if (created === undefined) {
      await this.#deps.steps.recordFailure(request, browser, 'email_otp_signup');
      return retry;
    }
    return this.#deps.steps.completeAuthentication(request, browser, {
      userId: created.userId,
      amr: [AMR_OTP],
      method: 'email_otp_signup',
    });
  }
}
