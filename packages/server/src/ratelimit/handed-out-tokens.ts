import type { AuditLog } from '../audit/audit-log.js';
import { retryAfterPhrase, SvcTooManyAttemptsError } from '../kernel/errors.js';
import type { FailureLimit } from './failure-throttle.js';

/** The limit on handed-out tokens (`failureLimits.tokenIp`) and where its refusals are audited. */
export interface HandedOutTokenLimit extends FailureLimit {
  readonly audit: AuditLog;
}

/**
 * Runs the look-up of a handed-out token for a service that does not know the caller's address: the
 * caller's wrapper (lookUpHandedOut with its address) counts the ones that find nothing.
 */
export type TokenLookUp = <T>(find: () => Promise<T | undefined>) => Promise<T | undefined>;

/**
 * Looks up a secret Svc handed out (a link's token, a code, a state) that a caller presents from
 * `address`, counting a lookup that finds nothing usable against the address (`failureLimits.tokenIp`,
 * every kind together): while the address is locked the lookup does not run and the caller gets 429,
 * audited as `auth.token.throttled`. Such secrets have 256 random bits, so the limit stops a client from
 * hammering the database with guesses rather than a guess from succeeding. Without an address (an
 * in-process call that names none) nothing is counted: the host application that relays its users'
 * calls limits them itself.
 */
export async function lookUpHandedOut<T>(
  limit: HandedOutTokenLimit,
  address: string | null | undefined,
  lookup: () => Promise<T | undefined>,
): Promise<T | undefined> {
  if (address == null) return lookup();
  const check = await limit.throttle.begin([{ rule: limit.rule, value: address }]);
  if (!check.allowed) {
    const error = new SvcTooManyAttemptsError(
      `Too many links or codes that are not valid were tried from this address. Try again ${retryAfterPhrase(check.retryAfterMs)}.`,
      check.retryAfterMs,
    );
    await limit.audit.record({
      kind: 'auth.token.throttled',
      actorType: 'user',
      ipAddress: address,
      data: { retryAfterSeconds: error.retryAfterSeconds },
    });
    throw error;
  }
  const found = await lookup();
  if (found !== undefined) await check.attempt.succeeded();
  return found;
}
