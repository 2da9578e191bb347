import type { OidcProviderType } from '@svc/contract';

/**
 * A plain square button image: the provider's initial in white on a colour people associate with it.
 * Drawn here (no provider's artwork is copied); an operator who wants the official mark sets
 * `logoDataUrl`.
 */
function letterLogo(background: string, letters: string): string {
  const fontSize = letters.length > 1 ? 10 : 14;
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">' +
    `<rect width="24" height="24" rx="4" fill="${background}"/>` +
    `<text x="12" y="${12 + fontSize * 0.36}" font-family="Arial,Helvetica,sans-serif" font-size="${fontSize}"` +
    ` font-weight="700" fill="#ffffff" text-anchor="middle">${letters}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

/** The built-ins' default `logoDataUrl`; a Custom connection without one shows its display name only. */
export const DEFAULT_PROVIDER_LOGOS: Readonly<Partial<Record<OidcProviderType, string>>> = Object.freeze({
  Google: letterLogo('#4285f4', 'G'),
  Microsoft: letterLogo('#0078d4', 'M'),
  Apple: letterLogo('#000000', 'A'),
  GitHub: letterLogo('#24292f', 'GH'),
});
