import { describe, expect, it } from 'vitest';
import { isSecretKey, redactSecrets } from './redact.js';

describe('isSecretKey', () => {
  it('matches the secret names in any case and spelling', () => {
    for (const key of [
      'password',
      'PASSWORD',
      'newPassword',
      'secret',
      'clientSecret',
      'client_secret',
      'token',
      'refresh_token',
      'accessToken',
      'code',
      'Code',
      'codeVerifier',
      'code_verifier',
      'otp',
    ]) {
      expect(isSecretKey(key), key).toBe(true);
    }
  });

  it('leaves ordinary detail alone', () => {
    for (const key of [
      'route',
      'errorCode',
      'statusCode',
      'countryCode',
      'tokenEndpointAuthMethod',
      'tokenType',
      'clientId',
      'passwordPolicy',
    ]) {
      expect(isSecretKey(key), key).toBe(false);
    }
  });
});

describe('redactSecrets', () => {
  it('turns odd values into JSON and survives cycles', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const shared = { a: 1 };
    const { value, redactedPaths } = redactSecrets({
      at: new Date(Date.UTC(2026, 0, 1)),
      big: 12n,
      fn: () => 1,
      missing: undefined,
      nan: Number.NaN,
      url: new URL('https://example.com/a'),
      cyclic,
      twice: [shared, shared],
    });
    expect(value).toEqual({
      at: '2026-01-01T00:00:00.000Z',
      big: '12',
      nan: 'NaN',
      url: 'https://example.com/a',
      cyclic: { name: 'loop', self: '[circular]' },
      twice: [{ a: 1 }, { a: 1 }],
    });
    expect(redactedPaths).toEqual([]);
    expect(() => JSON.stringify(value)).not.toThrow();
  });

  it('cuts nesting deeper than eight levels', () => {
    let deep: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 12; i++) deep = { next: deep };
    expect(JSON.stringify(redactSecrets(deep).value)).toContain('[truncated]');
  });
});
