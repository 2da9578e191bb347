import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HOUR_MS, MINUTE_MS } from '../kernel/clock.js';
import { randomIds } from '../kernel/ids.js';
import { FakeClock } from '../test-support/fake-clock.js';
import { Antiforgery, deriveHostedKey } from './antiforgery.js';

const ORIGIN = 'https://id.example.com';

function setup() {
  const clock = new FakeClock();
  const key = deriveHostedKey(randomBytes(32), 'antiforgery');
  const antiforgery = new Antiforgery({ key, clock, ids: randomIds, publicOrigin: ORIGIN });
  return { clock, key, antiforgery };
}

describe('deriveHostedKey', () => {
  it('derives a stable 32-byte key per master key and purpose', () => {
    const master = randomBytes(32);
    const a = deriveHostedKey(master, 'antiforgery');
    expect(a).toHaveLength(32);
    expect(deriveHostedKey(Buffer.from(master), 'antiforgery').equals(a)).toBe(true);
    expect(deriveHostedKey(master, 'other').equals(a)).toBe(false);
    expect(deriveHostedKey(randomBytes(32), 'antiforgery').equals(a)).toBe(false);
    expect(a.equals(master)).toBe(false);
  });

  it('refuses a short master key', () => {
    expect(() => deriveHostedKey(randomBytes(16), 'antiforgery')).toThrow(/32 bytes/);
  });
});

describe('Antiforgery', () => {
  it('verifies a token with its own cookie from the public origin', () => {
    const { antiforgery } = setup();
    const issued = antiforgery.issue(undefined);
    expect(issued.newCookie).toBe(true);
    expect(issued.cookieId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issued.token).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
    expect(
      antiforgery.verify({
        cookieId: issued.cookieId,
        token: issued.token,
        origin: ORIGIN,
        referer: undefined,
      }),
    ).toEqual({ ok: true });
  });

  it('reuses a well-formed cookie id (two tabs keep working) and replaces a malformed one', () => {
    const { antiforgery } = setup();
    const first = antiforgery.issue(undefined);
    const second = antiforgery.issue(first.cookieId);
    expect(second).toMatchObject({ cookieId: first.cookieId, newCookie: false });
    const ok = (token: string) =>
      antiforgery.verify({ cookieId: first.cookieId, token, origin: ORIGIN, referer: undefined }).ok;
    expect(ok(first.token)).toBe(true);
    expect(ok(second.token)).toBe(true);
    const replaced = antiforgery.issue('short;bad');
    expect(replaced.newCookie).toBe(true);
    expect(replaced.cookieId).not.toBe('short;bad');
  });

  it('refuses a token with another browser’s cookie, a tampered token, and a token of another key', () => {
    const { antiforgery, clock } = setup();
    const mine = antiforgery.issue(undefined);
    const theirs = antiforgery.issue(undefined);
    const verify = (cookieId: string, token: unknown) =>
      antiforgery.verify({ cookieId, token, origin: ORIGIN, referer: undefined });
    expect(verify(theirs.cookieId, mine.token)).toEqual({ ok: false, reason: 'invalid_token' });
    const [issuedAt, mac] = mine.token.split('.') as [string, string];
    const flipped = `${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expect(verify(mine.cookieId, `${issuedAt}.${flipped}`)).toEqual({ ok: false, reason: 'invalid_token' });
    // Moving issuedAt forward to extend the lifetime breaks the MAC.
    expect(verify(mine.cookieId, `${Number(issuedAt) + HOUR_MS}.${mac}`)).toEqual({
      ok: false,
      reason: 'invalid_token',
    });
    const other = new Antiforgery({
      key: randomBytes(32),
      clock,
      ids: randomIds,
      publicOrigin: ORIGIN,
    }).issue(mine.cookieId);
    expect(verify(mine.cookieId, other.token)).toEqual({ ok: false, reason: 'invalid_token' });
    expect(verify(mine.cookieId, 'garbage')).toEqual({ ok: false, reason: 'invalid_token' });
    expect(verify(mine.cookieId, [mine.token, mine.token])).toEqual({ ok: false, reason: 'invalid_token' });
  });

  it('refuses a missing cookie or token', () => {
    const { antiforgery } = setup();
    const issued = antiforgery.issue(undefined);
    expect(
      antiforgery.verify({ cookieId: undefined, token: issued.token, origin: ORIGIN, referer: undefined }),
    ).toEqual({
      ok: false,
      reason: 'missing_cookie',
    });
    expect(
      antiforgery.verify({ cookieId: '', token: issued.token, origin: ORIGIN, referer: undefined }),
    ).toEqual({
      ok: false,
      reason: 'missing_cookie',
    });
    for (const token of [undefined, '', 42]) {
      expect(
        antiforgery.verify({ cookieId: issued.cookieId, token, origin: ORIGIN, referer: undefined }),
      ).toEqual({
        ok: false,
        reason: 'missing_token',
      });
    }
  });

  it('accepts a token up to one hour old and refuses it after', () => {
    const { antiforgery, clock } = setup();
    const issued = antiforgery.issue(undefined);
    const verify = () =>
      antiforgery.verify({
        cookieId: issued.cookieId,
        token: issued.token,
        origin: ORIGIN,
        referer: undefined,
      });
    clock.advance(HOUR_MS);
    expect(verify()).toEqual({ ok: true });
    clock.advance(1);
    expect(verify()).toEqual({ ok: false, reason: 'expired' });
  });

  it('tolerates a minute of clock difference between nodes for a token from the future, not more', () => {
    const { antiforgery, clock } = setup();
    const issued = antiforgery.issue(undefined);
    const verify = () =>
      antiforgery.verify({
        cookieId: issued.cookieId,
        token: issued.token,
        origin: ORIGIN,
        referer: undefined,
      });
    clock.advance(-MINUTE_MS);
    expect(verify()).toEqual({ ok: true });
    clock.advance(-1);
    expect(verify()).toEqual({ ok: false, reason: 'invalid_token' });
  });

  it('checks Origin, falls back to Referer, and refuses when both are missing', () => {
    const { antiforgery } = setup();
    const { cookieId, token } = antiforgery.issue(undefined);
    const verify = (origin: string | undefined, referer: string | undefined) =>
      antiforgery.verify({ cookieId, token, origin, referer });
    expect(verify('https://evil.example', undefined)).toEqual({ ok: false, reason: 'cross_origin' });
    expect(verify('null', `${ORIGIN}/svc/auth/login`)).toEqual({ ok: false, reason: 'cross_origin' });
    expect(verify('http://id.example.com', undefined)).toEqual({ ok: false, reason: 'cross_origin' });
    expect(verify('https://id.example.com:8443', undefined)).toEqual({ ok: false, reason: 'cross_origin' });
    // Origin wins over a same-origin Referer.
    expect(verify('https://evil.example', `${ORIGIN}/svc/auth/login`)).toEqual({
      ok: false,
      reason: 'cross_origin',
    });
    expect(verify(undefined, `${ORIGIN}/svc/auth/login?request_id=x`)).toEqual({ ok: true });
    expect(verify(undefined, 'https://id.example.com.evil.example/svc/auth/login')).toEqual({
      ok: false,
      reason: 'cross_origin',
    });
    expect(verify(undefined, 'not a url')).toEqual({ ok: false, reason: 'cross_origin' });
    expect(verify(undefined, undefined)).toEqual({ ok: false, reason: 'unknown_origin' });
  });

  it('refuses a key shorter than 32 bytes', () => {
    expect(
      () =>
        new Antiforgery({
          key: randomBytes(16),
          clock: new FakeClock(),
          ids: randomIds,
          publicOrigin: ORIGIN,
        }),
    ).toThrow(/32 bytes/);
  });
});
