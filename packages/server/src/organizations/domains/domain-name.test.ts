import { describe, expect, it } from 'vitest';
import { SvcValidationError } from '../../kernel/errors.js';
import { claimableDomainOrUndefined, parseClaimableDomain } from './domain-name.js';

describe('claimable domain names', () => {
  it.each([
    ['acme.com', 'acme.com'],
    ['  ACME.Com.  ', 'acme.com'],
    ['eng.acme.co.uk', 'eng.acme.co.uk'],
    ['Bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['1password.com', '1password.com'],
    ['a-b.c-d.org', 'a-b.c-d.org'],
  ])('%j is stored as %j', (input, stored) => {
    expect(parseClaimableDomain(input)).toBe(stored);
    expect(claimableDomainOrUndefined(input)).toBe(stored);
  });

  it.each([
    ['', /domain name such as example\.com/],
    ['com', /below its top-level domain/],
    ['localhost', /below its top-level domain/],
    ['1.2.3.4', /not an IP address/],
    ['127.1', /not an IP address/],
    ['0x7f.1', /not an IP address/],
    ['[::1]', /not an IP address/],
    ['::1', /not an IP address/],
    ['10.0.0.300', /not an IP address/],
    ['https://acme.com', /domain name such as/],
    ['ann@acme.com', /domain name such as/],
    ['acme.com/path', /domain name such as/],
    ['acme.com:443', /domain name such as/],
    ['_dmarc.acme.com', /domain name such as/],
    ['*.acme.com', /domain name such as/],
    ['exa%41mple.com', /domain name such as/],
    ['acme..com', /domain name such as/],
    ['-acme.com', /domain name such as/],
    ['acme-.com', /domain name such as/],
    ['ac me.com', /domain name such as/],
    ['acme.c', /domain name such as/],
    ['acme.c0m', /domain name such as/],
    [`${'a'.repeat(64)}.com`, /domain name such as/],
    [`${'a.'.repeat(126)}com`, /domain name such as/],
  ])('%j is refused: %s', (input, message) => {
    expect(() => parseClaimableDomain(input)).toThrow(SvcValidationError);
    expect(() => parseClaimableDomain(input)).toThrow(message);
    expect(claimableDomainOrUndefined(input)).toBeUndefined();
  });

  it('names the domain field in its 400', () => {
    try {
      parseClaimableDomain('com');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SvcValidationError);
      expect((error as SvcValidationError).details).toEqual([
        { path: 'domain', message: expect.stringContaining('top-level') as unknown },
      ]);
      expect((error as SvcValidationError).message).toMatch(/^Invalid domain: /);
    }
  });
});
