import { retryAfterPhrase, SvcTooManyAttemptsError } from '../kernel/errors.js';
import type { FailureLimit } from './failure-throttle.js';

/**
 * Looks up a secret Svc handed out (a link's token, a code, a state) that a caller presents from
 * `address`, counting a lookup that finds nothing usable against the address (`failureLimits.tokenIp`,
 * every kind together): while the address is locked the lookup does not run and the caller gets 429.
 * Such secrets have 256 random bits, so the limit stops a client from hammering the database with
 * guesses rather than a guess from succeeding. Without an address (an in-process call that names none)
 * nothing is counted: the host application that relays its users' calls limits them itself.
 */
export async function lookUpHandedOut<T>(
  limit: FailureLimit,
  address: string | null | undefined,
  lookup: () => Promise<T | undefined>,
): Promise<T | undefined> {
  if (address == null) return lookup();
  const check = await limit.throttle.begin([{ rule: limit.rule, value: address }]);
  if (!check.allowed) {
    throw new SvcTooManyAttemptsError(
      `Too many links or codes that are not valid were tried from this address. Try again ${retryAfterPhrase(check.retryAfterMs)}.`,
      check.retryAfterMs,
    );
  }
  const found = await lookup();
  if (found !== undefined) await check.attempt.succeeded();
  return found;
}
