import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomIds } from './ids.js';

const AT = Date.UTC(2026, 10, 25, 12, 0, 0);

describe('randomIds', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives sessions and refresh tokens ids that lead with the time and sort by it', () => {
    vi.useFakeTimers({ now: AT, toFake: ['Date'] });
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      made.push(randomIds.id('ses'));
      vi.setSystemTime(AT + (i + 1) * 1000);
    }
    for (const id of made) expect(id).toMatch(/^ses_[0-9a-f]{32}$/);
    expect(made[0]?.slice(4, 16)).toBe(AT.toString(16).padStart(12, '0'));
    expect([...made].reverse().sort()).toEqual(made);
    expect(randomIds.id('rft').slice(4, 16)).toBe((AT + 5000).toString(16).padStart(12, '0'));
  });

  it('keeps ids made in the same millisecond apart by 80 random bits', () => {
    vi.useFakeTimers({ now: AT, toFake: ['Date'] });
    const tails = new Set(Array.from({ length: 1000 }, () => randomIds.id('rft').slice(16)));
    expect(tails.size).toBe(1000);
    for (const tail of tails) expect(tail).toMatch(/^[0-9a-f]{20}$/);
  });

  it('never hands out the same random bytes twice, across many refills of its buffer', () => {
    // 4,096 bytes a refill: 2,000 secrets of 32 bytes and 2,000 ids of 10 span about 20 refills.
    const secrets = Array.from({ length: 2000 }, () => randomIds.secret());
    const tails = Array.from({ length: 2000 }, () => randomIds.id('rft').slice(16));
    expect(new Set(secrets).size).toBe(2000);
    expect(new Set(tails).size).toBe(2000);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const chunks = new Set(secrets.flatMap((secret) => [secret.slice(0, 10), secret.slice(20, 30)]));
    expect(chunks.size).toBe(4000);
  });

  it('gives every other record a wholly random id, which tells nothing of when it was made', () => {
    vi.useFakeTimers({ now: AT, toFake: ['Date'] });
    const time = AT.toString(16).padStart(12, '0');
    const users = Array.from({ length: 20 }, () => randomIds.id('usr'));
    for (const id of users) expect(id).toMatch(/^usr_[0-9a-f]{32}$/);
    expect(users.filter((id) => id.slice(4, 16) === time)).toEqual([]);
  });
});
