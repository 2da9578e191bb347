import { afterAll, beforeAll, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createTestSvc, TEST_ADMIN_TOKEN, type TestSvc } from '../test-support/test-svc.js';
import { NOT_FOUND_BODY } from './errors.js';

/**
 * The operator token is a secret like any other: wrong ones are counted per client address across
 * requests (20 in 15 minutes lock the address for 15 minutes), on every operator surface alike.
 */
describeAboveStorage('operator token failures', (kind) => {
  let t: TestSvc;

  beforeAll(async () => {
    t = await createTestSvc(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (url: string, remoteAddress: string, token?: string) =>
    t.svc.app.inject({
      method: 'GET',
      url,
      remoteAddress,
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    });

  it('locks an address after 20 wrong tokens, even for the right one, and says when to retry', async () => {
    const attacker = '203.0.113.5';
    for (let i = 0; i < 20; i += 1) {
      // Spread over the surfaces: one count for all of them.
      const url = i % 2 === 0 ? '/svc/admin/auth/api/users' : '/svc/admin/audit/api/events';
      const guess = await call(url, attacker, `wrong-token-${i}-0123456789`);
      expect(guess.statusCode).toBe(404);
      expect(guess.json()).toEqual(NOT_FOUND_BODY);
    }
    const locked = await call('/svc/admin/fga/api/resources', attacker, TEST_ADMIN_TOKEN);
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe('900');
    expect(locked.json()).toMatchObject({
      error: 'too_many_attempts',
      message: expect.stringContaining('retry in 15 minutes') as unknown,
    });
    // Another address is not affected; the lock ends after its 15 minutes.
    expect((await call('/svc/admin/auth/api/users', '198.51.100.7', TEST_ADMIN_TOKEN)).statusCode).toBe(200);
    t.clock.advance(15 * MINUTE_MS);
    expect((await call('/svc/admin/auth/api/users', attacker, TEST_ADMIN_TOKEN)).statusCode).toBe(200);
  });

  it('counts no request without a token: nothing was guessed', async () => {
    const crawler = '203.0.113.9';
    for (let i = 0; i < 25; i += 1) {
      expect((await call('/svc/admin/auth/api/users', crawler)).statusCode).toBe(404);
    }
    expect((await call('/svc/admin/auth/api/users', crawler, TEST_ADMIN_TOKEN)).statusCode).toBe(200);
  });
});
