import { afterEach, describe, expect, it } from 'vitest';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * `trustProxy` (SVC_TRUST_PROXY): behind a load balancer the client address that per-IP limits and the
 * audit log use comes from X-Forwarded-For, and only from the proxies configured as trusted.
 */
describe('client address behind a proxy (trustProxy)', () => {
  let t: TestSvc | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** The address the audit log records for a rejected direct login that came through the proxy. */
  async function recordedAddress(options: Parameters<typeof createTestSvc>[1]) {
    t = await createTestSvc('sqlite', options);
    const clientId = `no-such-client-${Math.random().toString(36).slice(2)}`;
    const response = await t.svc.app.inject({
      method: 'POST',
      url: `${t.svc.config.authBase}/password/login`,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
      remoteAddress: '10.0.0.2',
      payload: { email: 'ann@example.com', password: 'whatever it is', clientId },
    });
    expect(response.statusCode).toBe(400);
    const event = await t.svc.database.db
      .selectFrom('auditEvents')
      .select('ipAddress')
      .where('kind', '=', 'oauth.direct_login.rejected')
      .where('clientId', '=', clientId)
      .executeTakeFirstOrThrow();
    return event.ipAddress;
  }

  it('by default the TCP peer is the client (a forged X-Forwarded-For changes nothing)', async () => {
    expect(await recordedAddress({})).toBe('10.0.0.2');
  });

  it('with the balancer trusted by address or by hop count, the forwarded client address', async () => {
    expect(await recordedAddress({ trustProxy: ['10.0.0.0/8'] })).toBe('203.0.113.7');
    await t?.close();
    expect(await recordedAddress({ trustProxy: 1 })).toBe('203.0.113.7');
  });

  it('a proxy outside the trusted addresses is not believed', async () => {
    expect(await recordedAddress({ trustProxy: ['192.168.0.0/16'] })).toBe('10.0.0.2');
  });
});
