import { afterAll, beforeAll, expect, it } from 'vitest';
import { MINUTE_MS } from '../kernel/clock.js';
import { createAccountHarness, type AccountHarness } from '../test-support/account-harness.js';
import { describeAboveStorage } from '../test-support/databases.js';

describeAboveStorage('password reset and email verification direct routes', (kind) => {
  let h: AccountHarness;
  let n = 0;
  beforeAll(async () => {
    h = await createAccountHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  // Same first letter and domain: the masked address cannot tell them apart either.
  const pair = () => {
    n += 1;
    return { known: `k-${kind}-${n}@example.com`, unknown: `k-${kind}-${n}-nobody@example.com` };
  };
  const later = () => h.t.clock.advance(2 * MINUTE_MS);

  for (const path of [
    '/password/forgot',
    '/password/reset-email',
    '/email/verification-email',
    '/email/verification-token',
  ]) {
    it(`POST ${path} answers byte-identical bodies for known and unknown addresses`, async () => {
      later();
      const { known, unknown } = pair();
      await h.user(known);
      const a = await h.post(path, { email: known });
      const b = await h.post(path, { Email: unknown });
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(a.body).toBe(b.body);
      expect(a.headers['cache-control']).toBe('no-store');
      expect(Object.keys(a.json() as object).sort()).toEqual([
        'expiresAt',
        'maskedEmail',
        'message',
        'nextAllowedSendAt',
      ]);
      expect(h.sentTo(known)).toHaveLength(1);
      expect(h.sentTo(unknown)).toHaveLength(0);
    });
  }

  it('ignores a reset URL template sent over HTTP, and resets with the mailed token (204)', async () => {
    later();
    const user = await h.user();
    const client = await h.firstPartyClient();
    const response = await h.post('/password/reset-email', {
      email: user.email,
      clientId: client.clientId,
      resetUrlTemplate: 'https://evil.example.net/{token}',
    });
    expect(response.statusCode).toBe(200);
    const { url, token } = h.linkTo(user.email);
    expect(url.pathname).toBe(`${h.authBase}/password/reset`);
    const reset = await h.post('/password/reset', { token, newPassword: 'a brand new passphrase' });
    expect(reset.statusCode).toBe(204);
    const again = await h.post('/password/reset', { token, newPassword: 'a brand new passphrase' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('POST /email/verify answers 204 once, then 400 invalid_token', async () => {
    later();
    const user = await h.user();
    await h.post('/email/verification-token', { email: user.email });
    const { token } = h.linkTo(user.email);
    expect((await h.post('/email/verify', { Token: token })).statusCode).toBe(204);
    const again = await h.post('/email/verify', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'invalid_token' });
  });

  it('answers malformed input with 4xx, never 5xx', async () => {
    const bodies: (object | string | undefined)[] = [
      undefined,
      '',
      '{',
      'null',
      '[]',
      '"text"',
      '42',
      {},
      { email: 5 },
      { email: 'no-at-sign' },
      { email: `${'a'.repeat(300)}@example.com` },
      { email: 'a@b.c', clientId: 7 },
      { token: {} },
      { token: '' },
      { token: 'x'.repeat(600) },
      { token: 'unknown', newPassword: 7 },
      { token: 'unknown', newPassword: 'short' },
      { token: 'unknown', newPassword: 'x'.repeat(1025) },
      { email: ['a@b.c'] },
      { __proto__: { email: 'a@b.c' } },
    ];
    const paths = [
      '/password/forgot',
      '/password/reset-email',
      '/password/reset',
      '/email/verification-email',
      '/email/verification-token',
      '/email/verify',
    ];
    for (const path of paths) {
      for (const body of bodies) {
        const response = await h.post(path, body);
        expect(response.statusCode, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
    }
  });
});
