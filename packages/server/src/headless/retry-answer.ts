import type { SvcHeadlessActionResult } from '@svc/contract';
import { toIso } from '../kernel/clock.js';
import { retryAfterSeconds } from '../kernel/errors.js';
import type { AuthorizeStep } from '../oauth/authorize/authorize-outcomes.js';
import type { AuthRequestRecord } from '../oauth/authorize/repository.js';
import { refusedSendMessage, type RefusedSend } from '../ratelimit/refused-send.js';
import type { HeadlessAnswer } from './headless-sign-in.js';

/**
 * The answer of a step that came back with an error: 400 with the view, `error` and `message`; for a
 * send the rate limit refused, 429 with `Retry-After`, the view's `resendAvailableAt` (whichever view
 * it is) and a message that says when to ask again.
 */
export function retryAnswer(
  view: SvcHeadlessActionResult,
  error: string,
  message: string,
  refused: RefusedSend | undefined,
): HeadlessAnswer {
  if (refused === undefined) return { status: 400, body: { ...view, error, message } };
  const viewModel =
    view.viewModel === null
      ? null
      : { ...view.viewModel, resendAvailableAt: toIso(refused.nextAllowedSendAt) };
  return {
    status: 429,
    body: { ...view, viewModel, error, message: refusedSendMessage(refused.retryAfterMs) },
    retryAfterSeconds: retryAfterSeconds(refused.retryAfterMs),
  };
}

/**
 * A code or link step with the time of a new send that the request's challenge holds, when the step was
 * built without it (the verify paths build the step of a wrong code themselves).
 */
export function withStoredResend(step: AuthorizeStep, record: AuthRequestRecord): AuthorizeStep {
  const stored = record.challenge?.resendAvailableAt;
  if (stored === undefined || (step.kind !== 'enter_code' && step.kind !== 'magic_link_sent')) return step;
  return step.resendAvailableAt === undefined ? { ...step, resendAvailableAt: stored } : step;
}
