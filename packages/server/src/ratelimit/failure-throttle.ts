import type { Clock } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import { retryAfterPhrase, SvcTooManyAttemptsError } from '../kernel/errors.js';
import { lockSteps, type FailureRule } from './failure-rules.js';
import type { CountedFailure, FailureCheck, FailureCounterStore } from './failure-repository.js';

/** A subject a check of a secret is counted against: a rule and the value it counts (an email, an IP…). */
export interface FailureSubject {
  readonly rule: FailureRule;
  /** Normalized by the caller (lower-cased email, E.164 phone, user id, IP address); stored only hashed. */
  readonly value: string;
}

/** A check that may run: its failure is already counted, so report the outcome to the attempt. */
export interface AllowedCheck {
  readonly allowed: true;
  readonly attempt: FailureAttempt;
}

/** A check that must not run: a subject is locked until `until` (epoch ms). */
export interface RefusedCheck {
  readonly allowed: false;
  readonly until: number;
  /** `until - now`, at least one second: the Retry-After of the answer. */
  readonly retryAfterMs: number;
}

/**
 * Limits guessing of a secret across requests, challenges and nodes (ASVS V2.2, NIST 800-63B §5.2.2).
 *
 * `begin` refuses a check while any subject is locked, so a refused guess costs the service no hash;
 * otherwise it counts the check as a failure before it runs and the caller takes that back on success.
 * Counting first means concurrent guesses cannot all slip in before the first failure is written.
 */
export class FailureThrottle {
  readonly #store: FailureCounterStore;
  readonly #clock: Clock;

  constructor(deps: { store: FailureCounterStore; clock: Clock }) {
    this.#store = deps.store;
    this.#clock = deps.clock;
  }

  async begin(subjects: readonly FailureSubject[]): Promise<AllowedCheck | RefusedCheck> {
    const now = this.#clock.now();
    const checks = subjects.map(toCheck);
    const result = await this.#store.begin(checks, now);
    if ('counted' in result) {
      return { allowed: true, attempt: new FailureAttempt(this.#store, subjects, result.counted) };
    }
    return refusal(result.lockedUntil, now);
  }

  /** Whether a check for these subjects would be refused now, without counting anything. */
  async peek(subjects: readonly FailureSubject[]): Promise<RefusedCheck | undefined> {
    const now = this.#clock.now();
    const until = await this.#store.lockedUntil(subjects.map(keyOf), now);
    return until > now ? refusal(until, now) : undefined;
  }

  /** Hourly housekeeping: drops counters whose window and lock have passed. */
  deleteExpired(): Promise<number> {
    return this.#store.deleteExpired(this.#clock.now());
  }
}

/** One check of a secret whose failure `begin` counted in advance. */
export class FailureAttempt {
  readonly #store: FailureCounterStore;
  readonly #subjects: readonly FailureSubject[];
  readonly #counted: readonly CountedFailure[];

  constructor(
    store: FailureCounterStore,
    subjects: readonly FailureSubject[],
    counted: readonly CountedFailure[],
  ) {
    this.#store = store;
    this.#subjects = subjects;
    this.#counted = counted;
  }

  /**
   * The secret was right: the failure counted in advance is taken back, and the counters of the `reset`
   * rules (for passwords, the account and address pair) are forgotten altogether.
   */
  async succeeded(reset: readonly FailureRule[] = []): Promise<void> {
    const resetKeys = this.#subjects.filter((s) => reset.includes(s.rule)).map(keyOf);
    await this.#store.takeBack(this.#counted.filter((c) => !resetKeys.includes(c.key)));
    if (resetKeys.length > 0) await this.#store.reset(resetKeys);
  }
}

function refusal(until: number, now: number): RefusedCheck {
  // Another node may have lifted the lock between the refusal and the read: never answer "retry now".
  const at = Math.max(until, now + 1000);
  return { allowed: false, until: at, retryAfterMs: at - now };
}

function keyOf(subject: FailureSubject): string {
  return `${subject.rule.name}:${sha256Hex(subject.value)}`;
}

function toCheck(subject: FailureSubject): FailureCheck {
  return {
    key: keyOf(subject),
    threshold: subject.rule.threshold,
    windowMs: subject.rule.windowMs,
    lockSteps: lockSteps(subject.rule),
  };
}

/** The throttle and the one rule a kind of check counts under (a user's second factor, an address's codes). */
export interface FailureLimit {
  readonly throttle: Pick<FailureThrottle, 'begin'>;
  readonly rule: FailureRule;
}

/** The answer to a code check refused while its subject is locked (MFA, email and SMS codes alike). */
export function tooManyCodesError(retryAfterMs: number): SvcTooManyAttemptsError {
  return new SvcTooManyAttemptsError(
    `Too many wrong codes were entered. Try again ${retryAfterPhrase(retryAfterMs)}.`,
    retryAfterMs,
  );
}
