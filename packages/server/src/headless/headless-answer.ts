import type { SvcHeadlessActionResult } from '@svc/contract';
import type { StartedSession } from '../signin/flow/authorize-outcomes.js';

/**
 * The body of a step that came back with an error: the action result plus `{ error, message }`, and a
 * refused attempt's wait (also the `Retry-After` header, which a cross-origin page cannot read).
 */
export type HeadlessRetryBody = SvcHeadlessActionResult & {
  readonly error: string;
  readonly message: string;
  readonly retryAfterSeconds?: number;
};

/** What a route answers: status, JSON body and the issuer session to put into the cookie (if any). */
export interface HeadlessAnswer {
  readonly status: 200 | 400 | 429;
  readonly body: SvcHeadlessActionResult | HeadlessRetryBody;
  /** Sent as `Retry-After` (a refused attempt). */
  readonly retryAfterSeconds?: number;
  readonly session?: StartedSession;
  /** The browser's issuer session ended (logout): the adapter clears the cookie. */
  readonly sessionEnded?: boolean;
}
