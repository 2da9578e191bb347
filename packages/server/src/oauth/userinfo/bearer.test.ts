import { describe, expect, it } from 'vitest';
import { bearerChallenge, readBearerToken } from './bearer.js';

describe('readBearerToken (RFC 6750)', () => {
  it('reads the header token (scheme case-insensitive) or the form token', () => {
    expect(readBearerToken('Bearer abc.def-_~+/==', undefined)).toEqual({
      kind: 'token',
      token: 'abc.def-_~+/==',
    });
    expect(readBearerToken('bearer   abc  ', undefined)).toEqual({ kind: 'token', token: 'abc' });
    expect(readBearerToken(undefined, 'abc')).toEqual({ kind: 'token', token: 'abc' });
    expect(readBearerToken(undefined, ['abc'])).toEqual({ kind: 'token', token: 'abc' });
  });

  it('no token: no header, another scheme, an empty form field', () => {
    expect(readBearerToken(undefined, undefined)).toEqual({ kind: 'none' });
    expect(readBearerToken('', undefined)).toEqual({ kind: 'none' });
    expect(readBearerToken('Basic YTpi', undefined)).toEqual({ kind: 'none' });
    expect(readBearerToken('Bearerish abc', undefined)).toEqual({ kind: 'none' });
    expect(readBearerToken(undefined, '')).toEqual({ kind: 'none' });
    // Another scheme in the header does not stop the form token.
    expect(readBearerToken('Basic YTpi', 'abc')).toEqual({ kind: 'token', token: 'abc' });
  });

  it('malformed: a Bearer header without exactly one b64token', () => {
    for (const header of ['Bearer', 'Bearer ', 'Bearer a b', 'Bearer a=b', 'Bearer "a"', 'Bearer a,b']) {
      expect(readBearerToken(header, undefined).kind, header).toBe('malformed');
    }
  });

  it('malformed: the form field repeated, or a token in both places', () => {
    expect(readBearerToken(undefined, ['a', 'b']).kind).toBe('malformed');
    expect(readBearerToken('Bearer a', 'a').kind).toBe('malformed');
  });
});

describe('bearerChallenge', () => {
  it('is bare without an error (RFC 6750 §3.1: no error information)', () => {
    expect(bearerChallenge()).toBe('Bearer');
  });

  it('quotes error and description, dropping characters a quoted-string cannot hold', () => {
    expect(bearerChallenge({ code: 'invalid_token', description: 'The token "x" is bad\\.\n' })).toBe(
      'Bearer error="invalid_token", error_description="The token x is bad."',
    );
  });
});
