import { describe, expect, it } from 'vitest';
import { randomIds, type Ids } from '../../../kernel/ids.js';
import {
  authenticatorCode,
  scanProvisioningUri,
  TOTP_STEP_MS,
  wrongCode,
} from '../../../test-support/authenticator-app.js';
import { matchTotpStep, newTotpSecret, totpProvisioningUri } from './totp.js';

/** Fifteen seconds into a step, so that ±1 step never crosses a boundary by accident. */
const NOW = Date.UTC(2026, 0, 1, 12, 0, 15);
const STEP = Math.floor(NOW / TOTP_STEP_MS);
const SECRET = newTotpSecret(randomIds);

describe('TOTP', () => {
  it('accepts the code an authenticator app shows now and names its step', () => {
    expect(matchTotpStep(SECRET, authenticatorCode(SECRET, NOW), NOW)).toBe(STEP);
  });

  it('accepts the codes of one step before and after (typed late, or a clock a little off), and no further', () => {
    expect(matchTotpStep(SECRET, authenticatorCode(SECRET, NOW - TOTP_STEP_MS), NOW)).toBe(STEP - 1);
    expect(matchTotpStep(SECRET, authenticatorCode(SECRET, NOW + TOTP_STEP_MS), NOW)).toBe(STEP + 1);
    expect(matchTotpStep(SECRET, authenticatorCode(SECRET, NOW - 2 * TOTP_STEP_MS), NOW)).toBeNull();
    expect(matchTotpStep(SECRET, authenticatorCode(SECRET, NOW + 2 * TOTP_STEP_MS), NOW)).toBeNull();
  });

  it('refuses wrong, short, long and non-digit codes, and codes of another secret', () => {
    const code = authenticatorCode(SECRET, NOW);
    const other = newTotpSecret(randomIds);
    for (const typed of [
      wrongCode(SECRET, NOW),
      code.slice(0, 5),
      `${code}0`,
      `${code.slice(0, 5)}a`,
      '12345a',
      '',
      '      ',
      '１２３４５６',
    ]) {
      expect(matchTotpStep(SECRET, typed, NOW), typed).toBeNull();
    }
    const otherCode = authenticatorCode(other, NOW);
    const accepted = [-1, 0, 1].map((s) => authenticatorCode(SECRET, NOW + s * TOTP_STEP_MS));
    if (!accepted.includes(otherCode)) expect(matchTotpStep(SECRET, otherCode, NOW)).toBeNull();
  });

  it('ignores spaces in a typed code ("123 456")', () => {
    const code = authenticatorCode(SECRET, NOW);
    expect(matchTotpStep(SECRET, ` ${code.slice(0, 3)} ${code.slice(3)} `, NOW)).toBe(STEP);
  });

  it('makes 160-bit base32 secrets from the injected randomness', () => {
    const fixed: Ids = {
      id: (prefix) => `${prefix}_1`,
      secret: () => Buffer.alloc(32, 0xff).toString('base64url'),
    };
    expect(newTotpSecret(fixed)).toBe('7'.repeat(32));
    expect(SECRET).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret(randomIds)).not.toBe(SECRET);
  });

  it('gives a provisioning URI an app reads as issuer, account, secret, SHA-1, 6 digits, 30 seconds', () => {
    const uri = totpProvisioningUri(SECRET, 'id.example.com', 'ada@example.com');
    expect(uri.startsWith('otpauth://totp/')).toBe(true);
    expect(scanProvisioningUri(uri)).toEqual({
      issuer: 'id.example.com',
      label: 'ada@example.com',
      secret: SECRET,
      algorithm: 'SHA1',
      digits: 6,
      period: 30,
    });
  });

  it('keeps colons out of the issuer and the account, so that apps split the label where it should', () => {
    const uri = totpProvisioningUri(SECRET, 'localhost:8080', 'Ada: home');
    expect(scanProvisioningUri(uri)).toMatchObject({ issuer: 'localhost 8080', label: 'Ada  home' });
  });
});
