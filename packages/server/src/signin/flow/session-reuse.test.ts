import { describe, expect, it } from 'vitest';
import { canReuseSession, freshEnoughToIssue, maxAgeSatisfied } from './session-reuse.js';

const NOW = 1_767_268_800_000;

describe('issuer session reuse', () => {
  it('max_age: none is always satisfied, 0 never, a positive one by an authentication within it', () => {
    expect(maxAgeSatisfied(null, 0, NOW)).toBe(true);
    expect(maxAgeSatisfied(0, NOW, NOW)).toBe(false);
    expect(maxAgeSatisfied(60, NOW - 60_000, NOW)).toBe(true);
    expect(maxAgeSatisfied(60, NOW - 60_001, NOW)).toBe(false);
  });

  it('prompt=login and prompt=select_account skip reuse; none and consent keep it', () => {
    const recent = NOW - 1000;
    expect(canReuseSession({ prompt: [], maxAge: null }, recent, NOW)).toBe(true);
    expect(canReuseSession({ prompt: new Set(['none']), maxAge: null }, recent, NOW)).toBe(true);
    expect(canReuseSession({ prompt: ['consent'], maxAge: null }, recent, NOW)).toBe(true);
    expect(canReuseSession({ prompt: ['login'], maxAge: null }, recent, NOW)).toBe(false);
    expect(canReuseSession({ prompt: new Set(['select_account']), maxAge: null }, recent, NOW)).toBe(false);
    expect(canReuseSession({ prompt: [], maxAge: 0 }, NOW, NOW)).toBe(false);
    expect(canReuseSession({ prompt: [], maxAge: 1 }, recent, NOW)).toBe(true);
    expect(canReuseSession({ prompt: [], maxAge: 1 }, NOW - 1001, NOW)).toBe(false);
  });

  it('at code issuance only a positive max_age is checked again', () => {
    expect(freshEnoughToIssue(null, 0, NOW)).toBe(true);
    expect(freshEnoughToIssue(0, NOW - 3_600_000, NOW)).toBe(true);
    expect(freshEnoughToIssue(300, NOW - 300_000, NOW)).toBe(true);
    expect(freshEnoughToIssue(300, NOW - 300_001, NOW)).toBe(false);
  });
});
