import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createTestSvc, TEST_ADMIN_TOKEN, type TestSvc } from '../test-support/test-svc.js';

const WINDOW_MS = 15 * MINUTE_MS;

/** Everything a caller can observe of an answer except the per-request date and connection headers. */
function observable(response: LightMyRequestResponse) {
  const { date: _date, connection: _connection, ...headers } = response.headers;
  return { status: response.statusCode, headers, body: response.body };
}

/**
 * A wrong operator token is the unknown-route 404 however many were sent, and the right token works from
 * any address whatever came before it: guessing is made pointless by the token's strength, and wrong
 * tokens are audited in aggregate (docs/decisions/operator-token-failures.md).
 */
describeAboveStorage('operator token failures', (kind) => {
  let t: TestSvc;

  beforeAll(async () => {
    t = await createTestSvc(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (url: string, remoteAddress: string, headers: Record<string, string> = {}) => {
    // A millisecond apart, so that the events come back in the order they were written.
    t.clock.advance(1);
    return t.svc.app.inject({ method: 'GET', url, remoteAddress, headers });
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** Moves the clock to the start of the next audit window, so that a test counts from zero. */
  const nextWindow = () => t.clock.advance(WINDOW_MS - (t.clock.now() % WINDOW_MS));
  const failures = async () =>
    (
      await t.svc.database.db
        .selectFrom('auditEvents')
        .selectAll()
        .where('kind', '=', 'admin.authentication.failed')
        .orderBy('occurredAt')
        .orderBy('id')
        .execute()
    ).map((row) => ({ ipAddress: row.ipAddress, data: JSON.parse(row.dataJson) as Record<string, unknown> }));

  it('never locks the operator out: after many wrong tokens from an address the right one works there at once', async () => {
    const address = '203.0.113.5';
    const unknown = observable(await call('/svc/no-such-page', address));
    expect(unknown.status).toBe(404);
    const wrongCredentials: Record<string, string>[] = [
      bearer('wrong-operator-token-0123456789abcdefABCDEF'),
      { authorization: 'Basic b3BlcmF0b3I6d3Jvbmc=' },
      { authorization: 'Bearer' },
      { cookie: `svc_dashboard=${'A'.repeat(43)}` },
      { cookie: 'svc_dashboard=not-a-session' },
      {},
    ];
    for (let i = 0; i < 60; i += 1) {
      // Spread over the surfaces and the kinds of refusal: each is exactly the unknown-route 404.
      const url = i % 2 === 0 ? '/svc/admin/auth/api/users' : '/svc/admin/audit/api/events';
      const refused = await call(url, address, wrongCredentials[i % wrongCredentials.length]);
      expect(observable(refused), `request ${i}`).toEqual(unknown);
    }
    const right = await call('/svc/admin/fga/api/resources', address, bearer(TEST_ADMIN_TOKEN));
    expect(right.statusCode, right.body).toBe(200);
    expect(right.headers['retry-after']).toBeUndefined();
  });

  it("audits an address's wrong tokens at the 1st, 10th and 100th of a window, and again in the next window", async () => {
    nextWindow();
    const before = (await failures()).length;
    const address = '198.51.100.20';
    for (let i = 0; i < 120; i += 1) {
      await call('/svc/admin/auth/api/users', address, bearer(`guess-${i}-0123456789abcdefghijklmnop`));
    }
    // No token guesses nothing, and the right token is no failure.
    await call('/svc/admin/auth/api/users', address);
    await call('/svc/admin/auth/api/users', address, bearer(TEST_ADMIN_TOKEN));
    const windowStartedAt = new Date(t.clock.now() - (t.clock.now() % WINDOW_MS)).toISOString();
    expect((await failures()).slice(before)).toEqual(
      [1, 10, 100].map((count) => ({
        ipAddress: address,
        data: { failures: count, from: 'address', windowStartedAt, windowMinutes: 15 },
      })),
    );
    nextWindow();
    await call('/svc/admin/auth/api/users', address, bearer('another-guess-0123456789abcdefghijk'));
    expect((await failures()).slice(before + 3)).toMatchObject([
      { ipAddress: address, data: { failures: 1 } },
    ]);
  });

  it('bounds the events: single addresses until the window has seen 100 wrong tokens, then every address together at the 1,000th, 10,000th…', async () => {
    nextWindow();
    const before = (await failures()).length;
    const guess = (address: string, i: number) =>
      call('/svc/admin/auth/api/users', address, bearer(`guess-${i}-0123456789abcdefghijklmnop`));
    for (let i = 0; i < 130; i += 1) await guess(`2001:db8:${(i + 1).toString(16)}::1`, i);
    const perAddress = (await failures()).slice(before);
    expect(perAddress).toHaveLength(100);
    expect(new Set(perAddress.map((event) => event.ipAddress)).size).toBe(100);
    expect(perAddress.every((event) => event.data.from === 'address' && event.data.failures === 1)).toBe(
      true,
    );
    for (let i = 130; i < 1000; i += 1) await guess('192.0.2.77', i);
    expect((await failures()).slice(before + 100)).toEqual([
      {
        ipAddress: '192.0.2.77',
        data: expect.objectContaining({ failures: 1000, from: 'every_address' }) as unknown,
      },
    ]);
  });
});
