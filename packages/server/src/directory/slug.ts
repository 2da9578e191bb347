/** Letters that Unicode decomposition does not reduce to ASCII, spelled the way people write them. */
const FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  '&': ' and ',
};

export const MAX_SLUG_LENGTH = 63;

/** The slug used when a name has no ASCII letter or digit at all (for example a name in kana). */
export const FALLBACK_SLUG = 'org';

function trimHyphens(value: string): string {
  return value.replace(/^-+|-+$/g, '');
}

/**
 * A URL-safe slug from an organization name: ASCII-folded ("Café Ørsted" → "cafe-orsted"), lower-case,
 * runs of anything else collapsed to one hyphen, at most 63 characters.
 */
export function slugify(name: string): string {
  const folded = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðþłı&]/g, (letter) => FOLDS[letter] ?? '');
  const slug = trimHyphens(trimHyphens(folded.replace(/[^a-z0-9]+/g, '-')).slice(0, MAX_SLUG_LENGTH));
  return slug === '' ? FALLBACK_SLUG : slug;
}

/** The n-th candidate for a base slug: `acme`, `acme-2`, `acme-3`…, shortened so that it stays ≤ 63. */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  const head = trimHyphens(base.slice(0, MAX_SLUG_LENGTH - suffix.length));
  return `${head === '' ? FALLBACK_SLUG : head}${suffix}`;
}
