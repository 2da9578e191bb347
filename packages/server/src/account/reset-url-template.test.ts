import { describe, expect, it } from 'vitest';
import { fillResetUrlTemplate, validateResetUrlTemplate } from './reset-url-template.js';

describe('reset URL template', () => {
  it('accepts absolute HTTPS templates with {token}', () => {
    expect(() => validateResetUrlTemplate('https://app.example.com/reset?t={token}', false)).not.toThrow();
    expect(() => validateResetUrlTemplate('https://app.example.com/reset/{token}', false)).not.toThrow();
  });

  it('allows loopback HTTP only in development', () => {
    for (const url of [
      'http://localhost:3000/r?t={token}',
      'http://127.0.0.1/r/{token}',
      'http://[::1]:8080/{token}',
    ]) {
      expect(() => validateResetUrlTemplate(url, true)).not.toThrow();
      expect(() => validateResetUrlTemplate(url, false)).toThrow(/HTTPS/);
    }
    expect(() => validateResetUrlTemplate('http://app.example.com/{token}', true)).toThrow(/HTTPS/);
  });

  it('refuses user info, relative URLs, other schemes and templates without {token}', () => {
    const bad = [
      'https://user:pass@app.example.com/{token}',
      'https://user@app.example.com/{token}',
      '/reset/{token}',
      'javascript:alert({token})',
      'https://app.example.com/reset',
    ];
    for (const template of bad) expect(() => validateResetUrlTemplate(template, true), template).toThrow();
  });

  it('replaces every {token} with the URL-escaped token', () => {
    expect(fillResetUrlTemplate('https://a.example/{token}?again={token}', 'a+b/c=')).toBe(
      'https://a.example/a%2Bb%2Fc%3D?again=a%2Bb%2Fc%3D',
    );
  });
});
