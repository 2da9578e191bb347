import { describe, expect, it } from 'vitest';
import { signInMethodWords } from './sign-in-methods.js';
import { readableUserAgent } from './user-agent.js';

describe('how the sessions table names a device and a sign-in', () => {
  it('names the browser and the system, not the engines the browser also claims', () => {
    const cases: readonly (readonly [string, string])[] = [
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge 131 on Windows',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/120.0.6099.28 Safari/537.36',
        'Chrome 120 on Linux',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari 17 on iOS',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
        'Firefox 128 on macOS',
      ],
    ];
    expect(cases.map(([agent]) => readableUserAgent(agent))).toEqual(cases.map(([, words]) => words));
    expect(readableUserAgent(null)).toBe('Unknown device');
  });

  it('words the RFC 8176 methods, and keeps a value it does not know', () => {
    expect(signInMethodWords(['pwd', 'otp'])).toBe('password, one-time code');
    expect(signInMethodWords(['fed', 'x-custom'])).toBe('single sign-on, x-custom');
    expect(signInMethodWords([])).toBe('—');
  });
});
