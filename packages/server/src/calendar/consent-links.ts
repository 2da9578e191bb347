import type { SecretBox } from '../kernel/crypto.js';

/**
 * A consent started by the app (its backend, or the host in process) before any browser is at Svc: what
 * Svc's consent page starts at the provider once the user's browser opens the link.
 */
export interface CalendarConsentLink {
  readonly userId: string;
  readonly clientId: string;
  readonly connectionId: string;
  readonly returnUri: string;
  /** The calendar scopes to ask for, already checked against the provider's allow-list. */
  readonly scopes: readonly string[];
  /** Epoch ms after which the link opens nothing. */
  readonly expiresAt: number;
}

/** The associated data of a sealed link: it opens as nothing else, and nothing else opens as one. */
const LINK_AAD = 'calendar-consent-link';

/**
 * Seals a link with the master key (AES-256-GCM): what the app hands the browser cannot be read or
 * changed, so the page trusts the user, client and return URI the start checked. It is not single-use:
 * opening it again only starts another consent for the same user, in a browser signed in as them.
 */
export function sealConsentLink(box: Pick<SecretBox, 'encrypt'>, link: CalendarConsentLink): string {
  return box.encrypt(JSON.stringify(link), LINK_AAD);
}

/** The link `sealed` holds while it is live at `now`; undefined when it is forged, changed or expired. */
export function openConsentLink(
  box: Pick<SecretBox, 'decrypt'>,
  sealed: string,
  now: number,
): CalendarConsentLink | undefined {
  let link: CalendarConsentLink;
  try {
    link = JSON.parse(box.decrypt(sealed, LINK_AAD)) as CalendarConsentLink;
  } catch {
    return undefined;
  }
  return link.expiresAt > now ? link : undefined;
}
