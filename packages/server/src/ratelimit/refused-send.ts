import { toIso } from '../kernel/clock.js';
import { retryAfterPhrase, SvcTooManyAttemptsError } from '../kernel/errors.js';
import type { RateLimitDecision } from './rate-limiter.js';

/** The error code of a refused send on every surface: direct routes, headless, hosted forms, in-process. */
export const SEND_REFUSED = 'resend_too_soon';

/**
 * A send (code, link or account email) that a rate limit refused: the resend delay, or a window of the
 * address or of the caller's IP address. Nothing was stored or sent. Limits are counted alike for every
 * address, known or not, so a refusal says nothing about accounts.
 */
export interface RefusedSend {
  /** Epoch ms: when a send may be asked for again. */
  readonly nextAllowedSendAt: number;
  readonly retryAfterMs: number;
}

/** The refusal of a rate-limit decision, or undefined when the send may go. */
export function refusedSendOf(decision: RateLimitDecision): RefusedSend | undefined {
  if (decision.allowed) return undefined;
  return { nextAllowedSendAt: decision.nextAllowedAt, retryAfterMs: decision.retryAfterMs };
}

/** What every surface says about a refused send, before when to ask again. */
export const SEND_REFUSED_WORDS = 'It is too soon to send another message, so nothing was sent.';

/** The words of a refused send, with when to ask again ("… You can ask again in 25 seconds."). */
export function refusedSendMessage(retryAfterMs: number): string {
  return `${SEND_REFUSED_WORDS} You can ask again ${retryAfterPhrase(retryAfterMs)}.`;
}

/**
 * What an operation throws for a refused send: 429 `resend_too_soon` with `Retry-After` and
 * `nextAllowedSendAt` (ISO 8601) on the JSON surfaces; `refused` for the adapters that show a form again.
 */
export class SvcSendRefusedError extends SvcTooManyAttemptsError {
  readonly refused: RefusedSend;

  constructor(refused: RefusedSend) {
    super(refusedSendMessage(refused.retryAfterMs), refused.retryAfterMs, {
      error: SEND_REFUSED,
      extra: { nextAllowedSendAt: toIso(refused.nextAllowedSendAt) },
    });
    this.refused = refused;
  }
}
