import { describe, expect, it } from 'vitest';
import { SvcValidationError } from '../kernel/errors.js';
import {
  EMAIL_REFUSAL_MESSAGES,
  emailLookupKey,
  emailMatchValue,
  parseEmailIdentity,
  requireEmailKey,
} from './email-key.js';

/** A deterministic pseudo-random generator (mulberry32): the property cases are the same on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `count` ASCII addresses: any printable character before the @, letters, digits, hyphens and dots after. */
function asciiAddresses(count: number): string[] {
  const random = generator(43);
  const pick = (alphabet: string, length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
  const host = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.';
  return Array.from({ length: count }, () => {
    const local = pick(printable, 1 + Math.floor(random() * 20)).trim() || 'x';
    return `${local}@${pick(host, 1 + Math.floor(random() * 20))}a`;
  });
}

const key = (address: string) => emailLookupKey(address);

describe('email lookup key', () => {
  it('keys every ASCII address exactly as trim-then-upper-case always did, so no stored key changes', () => {
    const addresses = [
      'ann@example.com',
      '  Ann@Example.COM ',
      "o'brien+tag@mail.example.co.uk",
      '"quoted local"@example.com',
      'a@b@example.com',
      '!#$%&*+/=?^`{|}~@example.com',
      'ceo@xn--bcher-kva.example',
      'ceo@xn--zz.test',
      'first.last@127.0.0.1',
      'under_score@a_b.test',
      ...asciiAddresses(500),
    ];
    for (const address of addresses) expect(key(address), address).toBe(address.trim().toUpperCase());
  });

  it('folds ASCII letters only', () => {
    expect(key('CEO@GITHUB.test')).toBe(key('ceo@github.test'));
    expect(key(' ceo@github.test\t')).toBe('CEO@GITHUB.TEST');
  });

  it('keeps a dotless or dotted Turkish i in the domain a different domain', () => {
    expect(key('ceo@gıthub.test')).toBe('CEO@XN--GTHUB-N4A.TEST');
    expect(key('ceo@gıthub.test')).not.toBe(key('ceo@github.test'));
    expect(key('ceo@gİthub.test')).not.toBe(key('ceo@github.test'));
    // The A-label typed as such is the same domain.
    expect(key('ceo@xn--gthub-n4a.test')).toBe(key('ceo@gıthub.test'));
  });

  it('compares an internationalized domain as its A-label', () => {
    expect(key('ceo@bücher.example')).toBe('CEO@XN--BCHER-KVA.EXAMPLE');
    expect(key('ceo@BÜCHER.example')).toBe(key('ceo@xn--bcher-kva.example'));
    expect(key('ann@日本語.jp')).toBe('ANN@XN--WGV71A119E.JP');
  });

  it('maps fullwidth and compatibility forms of a domain as UTS #46 does: the name DNS resolves', () => {
    expect(key('ceo@ｇｉｔｈｕｂ.test')).toBe(key('ceo@github.test'));
    expect(key('ceo@github。test')).toBe(key('ceo@github.test'));
    expect(key('ceo@oﬃce.test')).toBe(key('ceo@office.test'));
    expect(key('ceo@\u212aelvin.test')).toBe(key('ceo@kelvin.test'));
    // IDNA2008 keeps ß a letter of its own (no transitional mapping to "ss").
    expect(key('ceo@straße.test')).toBe('CEO@XN--STRAE-OQA.TEST');
    expect(key('ceo@straße.test')).not.toBe(key('ceo@strasse.test'));
  });

  it('refuses a part before the @ that is not printable ASCII, instead of folding it', () => {
    for (const address of [
      'ıvan@example.com', // dotless i: upper-cases to I
      'İvan@example.com',
      'straße@example.com', // ß upper-cases to SS
      'oﬃce@example.com', // the ligature upper-cases to FFI
      '\u212aelvin@example.com', // the Kelvin sign lower-cases to k
      'ａｎｎ@example.com', // fullwidth
      'çeo@example.com',
      'a\u0000b@example.com',
      'a\tb@example.com',
    ]) {
      expect(parseEmailIdentity(address), address).toEqual({ ok: false, refusal: 'local_part_not_ascii' });
      expect(key(address)).toBeUndefined();
    }
  });

  it('refuses what is not an address, and a domain IDNA cannot convert', () => {
    for (const address of ['', '   ', 'ann', '@example.com', 'ann@', 'ann@ ']) {
      expect(parseEmailIdentity(address), address).toEqual({ ok: false, refusal: 'not_an_address' });
    }
    for (const address of [
      'ann@bü cher.example',
      'ann@bücher%2eexample', // a percent escape the URL host parser would decode
      'ann@bücher／example',
      'ann@bü\u0000cher.example',
      'ann@xn--zz.tést',
      'ann@\u0301a.test',
    ]) {
      expect(parseEmailIdentity(address), address).toEqual({ ok: false, refusal: 'domain_not_valid' });
    }
  });

  it('answers the trimmed address with its key', () => {
    expect(parseEmailIdentity(' Ceo@Bücher.example ')).toEqual({
      ok: true,
      address: 'Ceo@Bücher.example',
      key: 'CEO@XN--BCHER-KVA.EXAMPLE',
    });
  });

  it('refuses with a 400 that says what to do', () => {
    expect(requireEmailKey('ann@example.com')).toBe('ANN@EXAMPLE.COM');
    let error: unknown;
    try {
      requireEmailKey('ıvan@example.com', 'invitee');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SvcValidationError);
    expect(error).toMatchObject({
      status: 400,
      message: EMAIL_REFUSAL_MESSAGES.local_part_not_ascii,
      details: [{ path: 'invitee', message: EMAIL_REFUSAL_MESSAGES.local_part_not_ascii }],
    });
    expect(EMAIL_REFUSAL_MESSAGES.local_part_not_ascii).toMatch(/before the @ is ASCII/);
  });

  it('matches a refused value by itself, never by a key', () => {
    expect(emailMatchValue('ann@example.com')).toBe('ANN@EXAMPLE.COM');
    expect(emailMatchValue(' ıvan@Example.com ')).toBe('ıVAN@EXAMPLE.COM');
    expect(emailMatchValue('not-an-address')).toBe('NOT-AN-ADDRESS');
    expect(emailMatchValue('ceı@example.com')).not.toBe(key('cei@example.com'));
  });
});
