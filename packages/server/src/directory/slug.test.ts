import { describe, expect, it } from 'vitest';
import { slugCandidate, slugify } from './slug.js';

describe('slugify', () => {
  it.each([
    ['Acme', 'acme'],
    ['  Acme   Corp, Inc.  ', 'acme-corp-inc'],
    ['Ærø Straße Łódź', 'aero-strasse-lodz'],
    ['Smith & Sons', 'smith-and-sons'],
    ['--Hello__World--', 'hello-world'],
    ['ＡＢＣ１２３', 'abc123'],
    ['東京', 'org'],
    ['', 'org'],
  ])('%j → %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('keeps at most 63 characters and no trailing hyphen', () => {
    expect(slugify(`${'a'.repeat(62)} b`)).toBe('a'.repeat(62));
    expect(slugify('a'.repeat(80))).toHaveLength(63);
  });
});

describe('slugCandidate', () => {
  it('appends -n and shortens the base to stay within 63 characters', () => {
    expect(slugCandidate('acme', 1)).toBe('acme');
    expect(slugCandidate('acme', 2)).toBe('acme-2');
    expect(slugCandidate('a'.repeat(63), 12)).toBe(`${'a'.repeat(60)}-12`);
    expect(slugCandidate(`${'a'.repeat(60)}-bc`, 2)).toBe(`${'a'.repeat(60)}-2`);
  });
});
