import type { EmailOtpChallenges } from './email-otp-challenges.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import {
  refusedRetry,
  type AuthorizeActionOutcome,
  type AuthorizeStep,
  type BrowserContext,
} from '../../flow/authorize-outcomes.js';
import type { AuthRequestRecord } from '../../flow/repository.js';

/** A typed code: six digits; spaces (as in "123 456") are ignored. */
const CODE = /^[0-9]{6}$/;

export interface EmailCodeDeps {
  readonly steps: Pick<AuthRequestSteps, 'load' | 'stepRequest'>;
  readonly challenges: Pick<EmailOtpChallenges, 'find' | 'check'>;
}

/** A code that was checked: the request, the answer to give when it failed, and the check's result. */
export interface CheckedEmailCode {
  readonly request: AuthRequestRecord;
  readonly retry: AuthorizeActionOutcome;
  /** undefined when no live challenge of this request's client matched. */
  readonly checked: Awaited<ReturnType<EmailOtpChallenges['check']>> | undefined;
}

/**
 * The part that sign-in and signup by emailed code share: the request waiting for a code of this kind
 * (otherwise on to its current step), the code's shape, the challenge of the request's client, and the
 * check itself, counted against the limits (a refused check answers with its wait).
 */
export async function checkEmailCode(
  deps: EmailCodeDeps,
  input: {
    readonly requestId: string | undefined;
    readonly browser: BrowserContext;
    readonly code: string | undefined;
    readonly kind: 'email_otp' | 'email_otp_signup';
    readonly operation: string;
  },
): Promise<CheckedEmailCode | { readonly outcome: AuthorizeActionOutcome }> {
  const { browser, kind } = input;
  const request = await deps.steps.load(input.requestId, browser);
  const challenge = request.challenge;
  if (request.status !== 'pending' || challenge?.kind !== kind) {
    return { outcome: { kind: 'next', requestId: request.id } };
  }
  const step: AuthorizeStep = {
    kind: 'enter_code',
    request: await deps.steps.stepRequest(request),
    challenge: kind,
    target: challenge.target,
  };
  const retry: AuthorizeActionOutcome = { kind: 'retry', step, error: 'code_invalid' };
  const typed = (input.code ?? '').replace(/\s/g, '');
  if (!CODE.test(typed)) return { outcome: retry };
  const found = await deps.challenges.find(challenge.hash, kind === 'email_otp' ? 'login' : 'signup');
  try {
    const checked =
      found === undefined || found.clientId !== request.clientId
        ? undefined
        : await deps.challenges.check(found, typed, {
            operation: input.operation,
            ipAddress: browser.ipAddress ?? null,
          });
    return { request, retry, checked };
  } catch (error) {
    return { outcome: refusedRetry(error, step) };
  }
}
