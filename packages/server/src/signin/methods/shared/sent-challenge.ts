import { retryAfterSeconds } from '../../../kernel/errors.js';
import { refusedSendMessage, type RefusedSend } from '../../../ratelimit/refused-send.js';
import type { AuthorizeActionOutcome, AuthorizeStep, StepRequest } from '../../flow/authorize-outcomes.js';
import type { AuthRequestChallenge, AuthRequestRecord, CodeChallengeKind } from '../../flow/repository.js';

/** The pages of the methods that send a code or a link (email and phone codes, sign-in links, signups). */
declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    /** The request waits for a code sent by email or text message (`challenge` says which form). */
    enter_code: {
      readonly kind: 'enter_code';
      readonly request: StepRequest;
      readonly challenge: CodeChallengeKind;
      /** The masked address or number the code went to. */
      readonly target: string;
      /** Epoch ms: when a new code may be asked for (the challenge's; absent when not known). */
      readonly resendAvailableAt?: number;
    };
    /** The request waits for the emailed sign-in link to be opened in this browser. */
    magic_link_sent: {
      readonly kind: 'magic_link_sent';
      readonly request: StepRequest;
      readonly target: string;
      /** Epoch ms: when a new link may be asked for (absent when not known). */
      readonly resendAvailableAt?: number;
    };
  }
  interface StepErrors {
    code_invalid: true;
    /** A code or link asked for too soon (the retry carries `refusedSend`: when to ask again). */
    resend_too_soon: true;
  }
}

/** The step of a request that waits for the code or link of `challenge`; undefined for other challenges. */
export function waitingStep(
  request: StepRequest,
  challenge: AuthRequestChallenge,
): AuthorizeStep | undefined {
  const resend =
    challenge.resendAvailableAt === undefined ? {} : { resendAvailableAt: challenge.resendAvailableAt };
  switch (challenge.kind) {
    case 'magic_link':
      return { kind: 'magic_link_sent', request, target: challenge.target, ...resend };
    case 'email_otp':
    case 'email_otp_signup':
    case 'phone_otp':
    case 'phone_otp_signup':
      return { kind: 'enter_code', request, challenge: challenge.kind, target: challenge.target, ...resend };
    default:
      return undefined;
  }
}

/** A pending request's page while it waits for a code or link of one of `kinds`; undefined otherwise. */
export function pendingChallengeStep(
  kinds: ReadonlySet<string>,
): (request: AuthRequestRecord, stepRequest: StepRequest) => Promise<AuthorizeStep | undefined> {
  return (request, stepRequest) =>
    Promise.resolve(
      request.challenge !== null && kinds.has(request.challenge.kind)
        ? waitingStep(stepRequest, request.challenge)
        : undefined,
    );
}

/**
 * A start whose send the rate limit refused: `step` again (the form, or the code or link the request
 * still waits for) with `resend_too_soon`; the adapters answer 429 and say when to ask again.
 */
export function refusedSendRetry(step: AuthorizeStep, refused: RefusedSend): AuthorizeActionOutcome {
  const shown =
    step.kind === 'enter_code' || step.kind === 'magic_link_sent'
      ? { ...step, resendAvailableAt: refused.nextAllowedSendAt }
      : step;
  return {
    kind: 'retry',
    step: shown,
    error: 'resend_too_soon',
    refused: {
      message: refusedSendMessage(refused.retryAfterMs),
      retryAfterSeconds: retryAfterSeconds(refused.retryAfterMs),
      resendAvailableAt: refused.nextAllowedSendAt,
    },
  };
}
