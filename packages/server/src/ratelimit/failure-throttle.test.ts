import { afterEach, beforeEach, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../kernel/clock.js';
import { openDatabase, type DatabaseHandle } from '../storage/database.js';
import { failureCounterRepository } from '../storage/repositories/failure-counters.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../test-support/databases.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { DEFAULT_FAILURE_RULES, lockSteps, resolveFailureRules, type FailureRule } from './failure-rules.js';
import { FailureThrottle, type FailureSubject } from './failure-throttle.js';

const START = Date.UTC(2026, 0, 1, 12, 0, 0);
const pair: FailureRule = DEFAULT_FAILURE_RULES.passwordAccountIp;
const perHour: FailureRule = { name: 'test.hour', threshold: 3, windowMs: HOUR_MS };

it('turns a rule into the lock ladder the store evaluates', () => {
  expect(lockSteps(pair)).toEqual([1, 2, 4, 8, 15].map((m) => m * MINUTE_MS));
  expect(lockSteps(DEFAULT_FAILURE_RULES.mfaUser)).toEqual([15 * MINUTE_MS]);
  expect(lockSteps(perHour)).toEqual([null]);
  expect(() => resolveFailureRules({ mfaUser: { threshold: 0 } })).toThrow(
    /failureLimits\.mfaUser\.threshold/,
  );
  expect(resolveFailureRules({ otpAddress: { threshold: 3 } }).otpAddress).toEqual({
    ...DEFAULT_FAILURE_RULES.otpAddress,
    threshold: 3,
  });
});

describeEachDatabase('failure throttle', (kind) => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let clock: FakeClock;
  let throttle: FailureThrottle;

  beforeEach(async () => {
    database = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(database.target);
    clock = new FakeClock(START);
    throttle = new FailureThrottle({ store: failureCounterRepository(handle.db), clock });
  });
  afterEach(async () => {
    await handle.close();
    await database.drop();
  });

  const subject = (rule: FailureRule, value = 'ada@example.com|192.0.2.1'): FailureSubject => ({
    rule,
    value,
  });

  /** Counts one failed check; true when it was allowed to run. */
  async function fail(...subjects: FailureSubject[]): Promise<boolean> {
    return (await throttle.begin(subjects)).allowed;
  }

  it('locks after the threshold and doubles the lock with each further failure, up to its maximum', async () => {
    for (let i = 1; i <= 5; i++) expect(await fail(subject(pair))).toBe(true);
    const waits: number[] = [];
    for (let round = 0; round < 6; round++) {
      const refused = await throttle.begin([subject(pair)]);
      if (refused.allowed) throw new Error('expected a refusal');
      waits.push(refused.retryAfterMs / MINUTE_MS);
      clock.advance(refused.retryAfterMs);
      expect(await fail(subject(pair))).toBe(true);
    }
    expect(waits).toEqual([1, 2, 4, 8, 15, 15]);
    expect(await throttle.peek([subject(pair)])).toMatchObject({
      allowed: false,
      retryAfterMs: 15 * MINUTE_MS,
    });
    expect(await throttle.peek([subject(pair, 'ada@example.com|192.0.2.2')])).toBeUndefined();
  });

  it('takes back the failure of a success, and forgets the counters a success resets', async () => {
    const hourly: FailureRule = { ...perHour, threshold: 9 };
    for (let i = 0; i < 4; i++) await fail(subject(pair), subject(hourly, 'ada'));
    const check = await throttle.begin([subject(pair), subject(hourly, 'ada')]);
    if (!check.allowed) throw new Error('expected the fifth check to run');
    // Counted in advance, the fifth check locks both until it reports its success.
    expect(await throttle.peek([subject(pair)])).toBeDefined();
    await check.attempt.succeeded([pair]);
    expect(await throttle.peek([subject(pair), subject(hourly, 'ada')])).toBeUndefined();
    // The pair starts from zero; the hourly counter still holds the four failures before the success.
    for (let i = 0; i < 5; i++) expect(await fail(subject(pair))).toBe(true);
    expect(await fail(subject(pair))).toBe(false);
    for (let i = 0; i < 5; i++) expect(await fail(subject(hourly, 'ada'))).toBe(true);
    expect(await fail(subject(hourly, 'ada'))).toBe(false);
  });

  it('without a lock length, locks until the window opened by the first failure ends', async () => {
    expect(await fail(subject(perHour))).toBe(true);
    clock.advance(10 * MINUTE_MS);
    expect(await fail(subject(perHour))).toBe(true);
    expect(await fail(subject(perHour))).toBe(true);
    const refused = await throttle.begin([subject(perHour)]);
    expect(refused).toEqual({ allowed: false, until: START + HOUR_MS, retryAfterMs: 50 * MINUTE_MS });
    clock.set(START + HOUR_MS);
    for (let i = 0; i < 3; i++) expect(await fail(subject(perHour))).toBe(true);
    expect(await fail(subject(perHour))).toBe(false);
  });

  it('counts nothing when any subject is locked', async () => {
    for (let i = 0; i < 3; i++) await fail(subject(perHour, 'ip'));
    expect(await fail(subject(perHour, 'account'), subject(perHour, 'ip'))).toBe(false);
    expect(await fail(subject(perHour, 'account'))).toBe(true);
    expect(await fail(subject(perHour, 'account'))).toBe(true);
    // Two failures of its own so far: the refused check above did not count against the account.
    expect(await fail(subject(perHour, 'account'))).toBe(true);
    expect(await fail(subject(perHour, 'account'))).toBe(false);
  });

  it('lets exactly the threshold of concurrent checks run', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => fail(subject(pair))));
    expect(results.filter(Boolean)).toHaveLength(pair.threshold);
  });

  it('housekeeping drops counters whose window and lock have passed', async () => {
    for (let i = 0; i < 5; i++) await fail(subject(pair));
    await fail(subject(perHour, 'other'));
    clock.advance(HOUR_MS);
    // The pair's lock (1 minute) is over and so is its hour; the other counter's hour ends now too.
    expect(await throttle.deleteExpired()).toBe(2);
    expect(await fail(subject(pair))).toBe(true);
  });
});
