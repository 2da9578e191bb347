import type { SvcHeadlessActionResult } from '@svc/contract';
import { toIso } from '../kernel/clock.js';
import type { RefusedAttempt } from '../kernel/errors.js';
import type { AuthorizeStep } from '../signin/flow/authorize-outcomes.js';
import type { AuthRequestRecord } from '../signin/flow/repository.js';
import type { HeadlessAnswer } from './headless-answer.js';

/**
 * The answer of a step that came back with an error: 400 with the view, `error` and `message`; for a
 * refused attempt (too many failed checks, or a send asked for too soon), 429 with `Retry-After` and
 * `retryAfterSeconds` (which a cross-origin page reads more easily), the refusal's message, and for a
 * refused send the view's `resendAvailableAt` (whichever view it is).
 */
export function retryAnswer(
  view: SvcHeadlessActionResult,
  error: string,
  message: string,
  refused: RefusedAttempt | undefined,
): HeadlessAnswer {
  const resendAt = refused?.resendAvailableAt;
  const viewModel =
    view.viewModel === null || resendAt === undefined
      ? view.viewModel
      : { ...view.viewModel, resendAvailableAt: toIso(resendAt) };
  return withRefusal({ status: 400, body: { ...view, viewModel, error, message } }, refused);
}

/** A retry answer that a limit refused (`refused`): 429 with the refusal's message and its Retry-After. */
export function withRefusal(retry: HeadlessAnswer, refused: RefusedAttempt | undefined): HeadlessAnswer {
  if (refused === undefined) return retry;
  const body = { ...retry.body, message: refused.message, retryAfterSeconds: refused.retryAfterSeconds };
  return { ...retry, status: 429, body, retryAfterSeconds: refused.retryAfterSeconds };
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
