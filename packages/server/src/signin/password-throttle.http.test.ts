import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { SvcTooManyAttemptsError } from '../kernel/errors.js';
import { describeAboveStorage } from '../test-support/databases.js';
import {
  createDirectHarness,
  DIRECT_PASSWORD,
  unique,
  type DirectHarness,
} from '../test-support/direct-test-app.js';
import type * as hasher from '../directory/password-hasher.js';
import { verifyPassword } from '../directory/password-hasher.js';

// Every argon2id verification the service runs goes through this spy, so a test can tell whether a
// refused attempt was hashed without measuring time.
vi.mock('../directory/password-hasher.js', async (importOriginal) => {
  const actual = await importOriginal<typeof hasher>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});
const verifications = () => vi.mocked(verifyPassword).mock.calls.length;

const WRONG = 'not the password';
const LOGIN_ROUTE = '/svc/auth/password/login';

let addresses = 0;
/** An address of TEST-NET-2 no other test uses, so that the per-address limits never meet. */
const newAddress = () => {
  addresses += 1;
  return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

/**
 * The limits on password guessing (docs/reference/limits.md "Secret checks") at the direct JSON route and the
 * in-process facade: 5 failures of an account from one address lock that pair (1 minute, doubling), 50
 * of an account lock it everywhere, 100 from an address lock that address; enumeration-safe, refused
 * before any hash, and audited as `auth.password.throttled`.
 */
describeAboveStorage('password guessing limits (direct and in-process)', (kind) => {
  let h: DirectHarness;
  let clientId: string;

  beforeAll(async () => {
    h = await createDirectHarness(kind);
    clientId = (await h.given.client()).clientId;
  });
  afterAll(() => h?.close());

  const login = (email: string, password: string, remoteAddress: string) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}/password/login`,
      headers: { 'content-type': 'application/json' },
      remoteAddress,
      payload: { email, password, clientId },
    });

  /** `count` wrong passwords that must each be checked (401). */
  async function failures(email: string, address: string, count: number): Promise<void> {
    for (let i = 1; i <= count; i += 1) {
      const response = await login(email, WRONG, address);
      expect(response.statusCode, `failure ${i}: ${response.body}`).toBe(401);
    }
  }

  /** The parts of a refusal that must not depend on the account: status, body and wait. */
  const refusalOf = (response: LightMyRequestResponse) => ({
    status: response.statusCode,
    retryAfter: response.headers['retry-after'],
    body: response.json<unknown>(),
  });

  const throttledEvents = async (userId: string | null) =>
    (await h.events('auth.password.throttled', clientId)).filter((e) => e.userId === userId);

  it('allows 5 failures of an account from one address, then refuses even the right password without hashing it; another address still signs in', async () => {
    const ann = await h.given.user();
    const address = newAddress();
    await failures(ann.email, address, 5);

    const hashed = verifications();
    const refused = await login(ann.email, WRONG, address);
    expect(refusalOf(refused)).toEqual({
      status: 429,
      retryAfter: '60',
      body: {
        error: 'too_many_attempts',
        message: 'Too many failed sign-in attempts. Try again in 1 minute.',
      },
    });
    const right = await login(ann.email, DIRECT_PASSWORD, address);
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBe('60');
    expect(verifications()).toBe(hashed);

    const elsewhere = await login(ann.email, DIRECT_PASSWORD, newAddress());
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect(verifications()).toBe(hashed + 1);

    const events = await throttledEvents(ann.id);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      actorType: 'user',
      actorId: ann.id,
      ipAddress: address,
      data: { route: LOGIN_ROUTE, rules: ['password.account-ip'], retryAfterSeconds: 60 },
    });
    expect(JSON.stringify(events)).not.toContain(DIRECT_PASSWORD);
    expect(JSON.stringify(events)).not.toContain(ann.email);
  });

  it('answers an unknown email exactly like a known one, at the same counts', async () => {
    const known = await h.given.user();
    const unknown = `${unique('nobody')}@example.com`;
    const answers = async (email: string) => {
      const address = newAddress();
      const seen: unknown[] = [];
      for (let i = 0; i < 7; i += 1) {
        const response = await login(email, WRONG, address);
        seen.push(response.statusCode === 429 ? refusalOf(response) : response.statusCode);
      }
      return seen;
    };
    const knownAnswers = await answers(known.email);
    expect(knownAnswers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(knownAnswers[5]).toMatchObject({ status: 429, retryAfter: '60' });
    expect(await answers(unknown)).toEqual(knownAnswers);

    const [unknownEvent] = await throttledEvents(null);
    expect(unknownEvent).toMatchObject({ actorId: null, data: { rules: ['password.account-ip'] } });
  });

  it('doubles the pair lock with each failure after it: 1 minute, then 2', async () => {
    const ann = await h.given.user();
    const address = newAddress();
    await failures(ann.email, address, 5);
    expect((await login(ann.email, WRONG, address)).headers['retry-after']).toBe('60');

    h.t.clock.advance(MINUTE_MS);
    await failures(ann.email, address, 1);
    const doubled = await login(ann.email, DIRECT_PASSWORD, address);
    expect(refusalOf(doubled)).toMatchObject({
      status: 429,
      retryAfter: '120',
      body: { message: 'Too many failed sign-in attempts. Try again in 2 minutes.' },
    });
    h.t.clock.advance(2 * MINUTE_MS - 1000);
    expect((await login(ann.email, DIRECT_PASSWORD, address)).headers['retry-after']).toBe('1');
    h.t.clock.advance(1000);
    expect((await login(ann.email, DIRECT_PASSWORD, address)).statusCode).toBe(200);
  });

  it('a success resets the pair: 5 more failures are allowed after it', async () => {
    const ann = await h.given.user();
    const address = newAddress();
    await failures(ann.email, address, 4);
    expect((await login(ann.email, DIRECT_PASSWORD, address)).statusCode).toBe(200);
    // Without the reset the fifth failure overall would lock the pair and the sixth be refused.
    await failures(ann.email, address, 5);
    expect((await login(ann.email, WRONG, address)).statusCode).toBe(429);
  });

  it('50 failures of one account from any addresses lock it everywhere, also in process', async () => {
    const ann = await h.given.user();
    for (let i = 0; i < 10; i += 1) await failures(ann.email, newAddress(), 5);

    const address = newAddress();
    const hashed = verifications();
    const refused = await login(ann.email, DIRECT_PASSWORD, address);
    // The account's window opened with its first failure and lasts an hour.
    expect(refusalOf(refused)).toEqual({
      status: 429,
      retryAfter: '3600',
      body: {
        error: 'too_many_attempts',
        message: 'Too many failed sign-in attempts. Try again in 60 minutes.',
      },
    });
    const inProcess = h.t.svc.auth.loginWithPasswordAsync({
      email: ann.email,
      password: DIRECT_PASSWORD,
      clientId,
    });
    await expect(inProcess).rejects.toBeInstanceOf(SvcTooManyAttemptsError);
    await expect(inProcess).rejects.toMatchObject({ code: 'too_many_attempts', status: 429 });
    expect(verifications()).toBe(hashed);

    // Both at the same fake instant: in either order.
    const events = await throttledEvents(ann.id);
    expect(events).toHaveLength(2);
    expect(events.map((e) => [e.ipAddress, e.data.route, e.data.rules])).toEqual(
      expect.arrayContaining([
        [address, LOGIN_ROUTE, ['password.account']],
        [null, 'loginWithPasswordAsync', ['password.account']],
      ]),
    );
  });

  it('an in-process call without an address counts only against the account', async () => {
    const ann = await h.given.user();
    for (let i = 0; i < 6; i += 1) {
      await expect(
        h.t.svc.auth.loginWithPasswordAsync({ email: ann.email, password: WRONG, clientId }),
      ).rejects.toMatchObject({ code: 'invalid_credentials' });
    }
    const result = await h.t.svc.auth.loginWithPasswordAsync({
      email: ann.email,
      password: DIRECT_PASSWORD,
      clientId,
    });
    expect(result.tokens).not.toBeNull();
  });

  it('100 failures from one address across accounts lock that address for every account', async () => {
    const address = newAddress();
    for (let i = 0; i < 100; i += 1) {
      const response = await login(`${unique('spray')}@example.com`, WRONG, address);
      expect(response.statusCode, `failure ${i + 1}`).toBe(401);
    }
    const ann = await h.given.user();
    const refused = await login(ann.email, DIRECT_PASSWORD, address);
    expect(refusalOf(refused)).toMatchObject({ status: 429, retryAfter: String(15 * 60) });
    const [event] = await throttledEvents(ann.id);
    expect(event?.data.rules).toEqual(['password.ip']);
    expect((await login(ann.email, DIRECT_PASSWORD, newAddress())).statusCode).toBe(200);
  });
});
