import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto.js';
import { refreshTokenKey, refreshTokenValue } from './refresh-token-value.js';

describe('refresh token value', () => {
  it('names its row before the secret, and is looked up by that id and its hash', () => {
    const token = refreshTokenValue('rft_0190aa', 'c2VjcmV0-_x');
    expect(token).toBe('rft_0190aa.c2VjcmV0-_x');
    expect(refreshTokenKey(token)).toEqual({ id: 'rft_0190aa', tokenHash: sha256Hex(token) });
  });

  it('takes the id up to the last dot, since a base64url secret has none', () => {
    expect(refreshTokenKey('an.id.with.dots.secret').id).toBe('an.id.with.dots');
  });

  it('looks up a token without an id (from before tokens named their rows) by its hash alone', () => {
    expect(refreshTokenKey('AbC-dEf_123')).toEqual({ id: null, tokenHash: sha256Hex('AbC-dEf_123') });
    expect(refreshTokenKey('.leading-dot')).toEqual({ id: null, tokenHash: sha256Hex('.leading-dot') });
  });

  it('never takes an id no row can have: a control or other non-printable character', () => {
    for (const token of [
      'rft_a\u0000b.secret',
      'rft_\u001b[31m.secret',
      'rft_\u007f.secret',
      'rft_ä.secret',
    ]) {
      expect(refreshTokenKey(token), JSON.stringify(token)).toEqual({
        id: null,
        tokenHash: sha256Hex(token),
      });
    }
  });
});
