import { tooManyCodesError, type FailureAttempt } from '../../../ratelimit/failure-throttle.js';
import type { MfaServiceDeps } from './deps.js';

/** Where a check of a second factor comes from, for the audit trail. */
export interface MfaCheckContext {
  /** The flow of the challenge (`direct`, `authorize`). */
  readonly flow: string;
  /** The route or in-process operation (`/svc/auth/mfa/challenge/verify`, `hosted /mfa/verify`). */
  readonly route: string;
}

/**
 * Begins one check of a user's second factor under the per-user limit: the attempt (its failure counted
 * in advance; report a right code to it), or, while the user is locked, the 429 answer before any code
 * is looked at, even the right one, audited as `auth.mfa.throttled` (never with the code).
 */
export async function beginMfaCheck(
  deps: Pick<MfaServiceDeps, 'failures' | 'audit'>,
  userId: string,
  context: MfaCheckContext,
): Promise<FailureAttempt> {
  const begun = await deps.failures.throttle.begin([{ rule: deps.failures.rule, value: userId }]);
  if (begun.allowed) return begun.attempt;
  await deps.audit.record({
    kind: 'auth.mfa.throttled',
    actorType: 'user',
    actorId: userId,
    userId,
    data: { route: context.route, flow: context.flow, retryAfterMs: begun.retryAfterMs },
  });
  throw tooManyCodesError(begun.retryAfterMs);
}
