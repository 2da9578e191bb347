import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../kernel/crypto.js';
import { randomIds, type Ids } from '../../../kernel/ids.js';
import {
  looksLikeRecoveryCode,
  newRecoveryCodes,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  recoveryCodeHash,
} from './recovery-codes.js';

/** Crockford base32 without I, L, O and U, in five groups of five. */
const FORMAT = /^[0-9A-HJKMNP-TV-Z]{5}(-[0-9A-HJKMNP-TV-Z]{5}){4}$/;

/** Ids whose secrets are the given bytes, one call after another. */
const idsOf = (secrets: number[][]): Ids => ({
  id: (prefix) => `${prefix}_1`,
  secret: () => Buffer.from(secrets.shift() ?? []).toString('base64url'),
});

describe('recovery codes', () => {
  it('are ten distinct codes of five groups of five unambiguous characters', () => {
    const codes = newRecoveryCodes(randomIds);
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(RECOVERY_CODE_COUNT).toBe(10);
    for (const code of codes) expect(code).toMatch(FORMAT);
    expect(new Set(codes).size).toBe(10);
  });

  it('carry at least 112 bits (ASVS 2.6.2): 25 characters, each 5 bits of its own random byte', () => {
    expect(RECOVERY_CODE_LENGTH * Math.log2(32)).toBeGreaterThanOrEqual(112);
    const zeros = Array.from({ length: 32 }, () => 0);
    // Flipping any one of the first 25 bytes changes its own character, and only it: 25 independent
    // characters of 32 equally likely values each.
    const flipped = Array.from({ length: RECOVERY_CODE_LENGTH }, (_, i) =>
      zeros.map((byte, j) => (j === i ? 31 : byte)),
    );
    const [base = '', ...variants] = newRecoveryCodes(idsOf([zeros, ...flipped]));
    expect(base).toBe('00000-00000-00000-00000-00000');
    for (const [i, variant] of variants.slice(0, RECOVERY_CODE_LENGTH).entries()) {
      const differing = [...variant.replaceAll('-', '')].filter(
        (char, j) => char !== base.replaceAll('-', '')[j],
      );
      expect(differing, `byte ${i}`).toEqual(['Z']);
    }
  });

  it('take 5 bits of each random byte, so every character of the alphabet can appear', () => {
    let byte = 0;
    const counting: Ids = {
      id: (prefix) => `${prefix}_1`,
      secret: () =>
        Buffer.from(Array.from({ length: RECOVERY_CODE_LENGTH }, () => byte++ % 256)).toString('base64url'),
    };
    const codes = newRecoveryCodes(counting);
    expect(codes.slice(0, 2)).toEqual(['01234-56789-ABCDE-FGHJK-MNPQR', 'STVWX-YZ012-34567-89ABC-DEFGH']);
  });

  it('hash the same whatever the case, spaces and dashes, and read O as 0 and I or L as 1', () => {
    const canonical = recoveryCodeHash('01AB1-CD0EF-GH1JK-MN0PQ-RSTVW');
    for (const typed of [
      '01ab1-cd0ef-gh1jk-mn0pq-rstvw',
      '01AB1CD0EFGH1JKMN0PQRSTVW',
      ' 01AB1 CD0EF GH1JK MN0PQ RSTVW ',
      'OIAB1-CDOEF-GHIJK-MNOPQ-RSTVW',
      'oLabl-cd0ef-ghljk-mn0pq-rstvw',
      '01-AB1-CD-0EF-GH1JKMN0PQ-RSTVW',
    ]) {
      expect(recoveryCodeHash(typed), typed).toBe(canonical);
    }
    expect(recoveryCodeHash('01AB1-CD0EF-GH1JK-MN0PQ-RSTVX')).not.toBe(canonical);
    expect(recoveryCodeHash('01AB1-CD0EF-GH1JK-MN0PQ-RSTV')).not.toBe(canonical);
  });

  it('are stored as a SHA-256 that does not contain the code, the same as the 10-character codes issued before', () => {
    const hash = recoveryCodeHash('01AB1-CD0EF-GH1JK-MN0PQ-RSTVW');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // Domain-separated: not the bare hash of the code, so a hash of one kind of secret is no other's.
    expect(hash).not.toBe(sha256Hex('01AB1CD0EFGH1JKMN0PQRSTVW'));
    expect(hash).not.toContain('01AB1');
    // The stored form is unchanged, so codes issued before stay verifiable without a migration.
    expect(recoveryCodeHash('oiab1-cd0ef')).toBe(sha256Hex('recovery:01AB1CD0EF'));
  });

  it('are told apart from 6-digit app codes by their length, the 10-character ones issued before included', () => {
    expect(looksLikeRecoveryCode('01AB1-CD0EF-GH1JK-MN0PQ-RSTVW')).toBe(true);
    expect(looksLikeRecoveryCode('01ab1 cd0ef gh1jk mn0pq rstvw')).toBe(true);
    expect(looksLikeRecoveryCode('01AB1-CD0EF')).toBe(true);
    expect(looksLikeRecoveryCode('123456')).toBe(false);
    expect(looksLikeRecoveryCode('123 456')).toBe(false);
    expect(looksLikeRecoveryCode('01AB1-CD0E')).toBe(false);
    expect(looksLikeRecoveryCode('01AB1-CD0EF-GH1JK-MN0PQ-RSTV')).toBe(false);
  });
});
