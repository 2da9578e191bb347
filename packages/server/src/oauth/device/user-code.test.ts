import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  formatUserCode,
  generateUserCode,
  normalizeUserCode,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
} from './user-code.js';

describe('user codes', () => {
  it('are 8 consonants of the base-20 alphabet, shown as XXXX-XXXX', () => {
    expect(USER_CODE_ALPHABET).toBe('BCDFGHJKLMNPQRSTVWXZ');
    for (let i = 0; i < 200; i += 1) {
      const code = generateUserCode(() => randomBytes(32));
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      expect(formatUserCode(code)).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    }
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
  });

  it('draw each letter without bias: bytes at or above 240 are skipped, the rest map modulo 20', () => {
    // 240..255 would favour the first 16 letters; they are drawn again.
    const batches = [Uint8Array.from([240, 255, 0, 19, 20, 239]), Uint8Array.from([250, 1, 2, 3, 4, 5, 6])];
    const code = generateUserCode(() => batches.shift() ?? new Uint8Array());
    expect(code).toBe('BZBZCDFG');
    expect(code).toHaveLength(USER_CODE_LENGTH);
  });

  it('spread over the whole alphabet', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 100; i += 1)
      for (const letter of generateUserCode(() => randomBytes(32))) seen.add(letter);
    expect([...seen].sort().join('')).toBe(USER_CODE_ALPHABET);
  });

  it('accept input in any case, with dashes, spaces and other punctuation', () => {
    for (const typed of [
      'BCDF-GHJK',
      'bcdf-ghjk',
      'BcDf GhJk',
      ' bcdfghjk ',
      'BCDF–GHJK',
      'bc.df-gh jk',
      'BCDF\tGHJK',
    ]) {
      expect(normalizeUserCode(typed)).toBe('BCDFGHJK');
    }
  });

  it('refuse anything that cannot be a user code', () => {
    for (const typed of [
      '',
      'BCDF-GHJ', // too short
      'BCDF-GHJKL', // too long
      'BCDF-GHJA', // a vowel
      'BCDF-GHJ1', // a digit
      'BCDF-GHJſ', // the long s upper-cases to S but is not ours
      'BCDF-GHJ\u00df',
      `BCDF-GHJK${' '.repeat(60)}`, // longer than any typed code
    ]) {
      expect(normalizeUserCode(typed)).toBeNull();
    }
  });
});
