import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../kernel/crypto.js';
import { randomIds, type Ids } from '../kernel/ids.js';
import {
  looksLikeRecoveryCode,
  newRecoveryCodes,
  RECOVERY_CODE_COUNT,
  recoveryCodeHash,
} from './recovery-codes.js';

/** Crockford base32 without I, L, O and U, in two groups of five. */
const FORMAT = /^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/;

describe('recovery codes', () => {
  it('are ten distinct codes of two groups of five unambiguous characters', () => {
    const codes = newRecoveryCodes(randomIds);
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(RECOVERY_CODE_COUNT).toBe(10);
    for (const code of codes) expect(code).toMatch(FORMAT);
    expect(new Set(codes).size).toBe(10);
  });

  it('take 5 bits of each random byte, so every character of the alphabet can appear', () => {
    let byte = 0;
    const counting: Ids = {
      id: (prefix) => `${prefix}_1`,
      secret: () => Buffer.from(Array.from({ length: 10 }, () => byte++ % 256)).toString('base64url'),
    };
    const codes = newRecoveryCodes(counting);
    expect(codes.slice(0, 4)).toEqual(['01234-56789', 'ABCDE-FGHJK', 'MNPQR-STVWX', 'YZ012-34567']);
  });

  it('hash the same whatever the case, spaces and dashes, and read O as 0 and I or L as 1', () => {
    const canonical = recoveryCodeHash('01AB1-CD0EF');
    for (const typed of [
      '01ab1-cd0ef',
      '01AB1CD0EF',
      ' 01AB1 CD0EF ',
      'OIAB1-CDOEF',
      'oLabl-cd0ef',
      '01-AB1-CD-0EF',
    ]) {
      expect(recoveryCodeHash(typed), typed).toBe(canonical);
    }
    expect(recoveryCodeHash('01AB1-CD0EG')).not.toBe(canonical);
    expect(recoveryCodeHash('01AB1-CD0E')).not.toBe(canonical);
  });

  it('are stored as a SHA-256 that does not contain the code', () => {
    const hash = recoveryCodeHash('01AB1-CD0EF');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // Domain-separated: not the bare hash of the code, so a hash of one kind of secret is no other's.
    expect(hash).not.toBe(sha256Hex('01AB1CD0EF'));
    expect(hash).not.toContain('01AB1');
  });

  it('are told apart from 6-digit app codes by their length', () => {
    expect(looksLikeRecoveryCode('01AB1-CD0EF')).toBe(true);
    expect(looksLikeRecoveryCode('01ab1 cd0ef')).toBe(true);
    expect(looksLikeRecoveryCode('123456')).toBe(false);
    expect(looksLikeRecoveryCode('123 456')).toBe(false);
    expect(looksLikeRecoveryCode('01AB1-CD0E')).toBe(false);
  });
});
