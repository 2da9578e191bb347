import type { AuditLog } from '../../../audit/audit-log.js';
import {
  tooManyCodesError,
  type FailureAttempt,
  type FailureLimit,
} from '../../../ratelimit/failure-throttle.js';

/** One check of a one-time code sent to an address, as the per-address limit counts it. */
export interface OtpCheck {
  readonly channel: 'email' | 'sms';
  /** Normalized (the email lookup key, the E.164 number); counted only as a hash, never audited. */
  readonly address: string;
  readonly purpose: 'login' | 'signup';
  readonly clientId: string;
  /** The route or in-process operation. */
  readonly route: string;
  readonly ipAddress?: string | null | undefined;
  /** What the channel's other audit events show of the address (the masked number), if anything. */
  readonly audited?: Readonly<Record<string, string>>;
}

/**
 * Begins one code check under the per-address limit (docs/reference/limits.md "Secret checks"): the attempt
 * (its failure counted in advance; report a proved code to it), or, while the address is locked, the 429
 * answer before any code is compared or sent to the SMS provider, even the right one, audited as
 * `auth.otp.throttled`. Known and unknown addresses are counted and refused alike.
 */
export async function beginOtpCheck(
  deps: { readonly failures: FailureLimit; readonly audit: AuditLog },
  check: OtpCheck,
): Promise<FailureAttempt> {
  const value = `${check.channel}:${check.address}`;
  const begun = await deps.failures.throttle.begin([{ rule: deps.failures.rule, value }]);
  if (begun.allowed) return begun.attempt;
  await deps.audit.record({
    kind: 'auth.otp.throttled',
    actorType: 'client',
    actorId: check.clientId,
    clientId: check.clientId,
    ...(check.ipAddress == null ? {} : { ipAddress: check.ipAddress }),
    data: {
      channel: check.channel,
      purpose: check.purpose,
      route: check.route,
      retryAfterMs: begun.retryAfterMs,
      ...check.audited,
    },
  });
  throw tooManyCodesError(begun.retryAfterMs);
}
