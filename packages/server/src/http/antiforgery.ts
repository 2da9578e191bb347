import { createHmac, hkdfSync } from 'node:crypto';
import { HOUR_MS, MINUTE_MS, type Clock } from '../kernel/clock.js';
import { safeEqual } from '../kernel/crypto.js';
import type { Ids } from '../kernel/ids.js';

/** Why an antiforgery check failed; logged, never shown (the page says the same thing for all). */
export type AntiforgeryFailure =
  'cross_origin' | 'unknown_origin' | 'missing_cookie' | 'missing_token' | 'invalid_token' | 'expired';

/** The cookie that binds hosted forms to one browser: a random id, HttpOnly, SameSite=Lax. */
export const ANTIFORGERY_COOKIE = 'svc_af';

/** The hidden form field of every hosted POST. */
export const ANTIFORGERY_FIELD = '_csrf';

/** How long a rendered form can be submitted. */
export const ANTIFORGERY_LIFETIME_MS = HOUR_MS;

/** A token dated this far in the future still verifies (clocks of several nodes differ a little). */
const FUTURE_SKEW_MS = MINUTE_MS;

/** A cookie id is base64url with at least 192 bits (Ids.secret() gives 256); anything else is ignored. */
const COOKIE_ID = /^[A-Za-z0-9_-]{32,128}$/;
const TOKEN = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/;

/**
 * Derives a purpose-bound 32-byte key from the master key with HKDF-SHA256 (RFC 5869), so that the
 * antiforgery MAC key is never the key that encrypts secrets at rest, and every node derives the same.
 */
export function deriveHostedKey(masterKey: Buffer, purpose: string): Buffer {
  if (masterKey.length < 32) throw new Error('The master key must be at least 32 bytes.');
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), `svc hosted ${purpose}`, 32));
}

export interface AntiforgeryDeps {
  /** At least 32 bytes; pass `deriveHostedKey(masterKey, 'antiforgery')`. */
  readonly key: Buffer;
  readonly clock: Clock;
  readonly ids: Ids;
  /** The configured PublicOrigin: the only origin a hosted form may be posted from. */
  readonly publicOrigin: string;
  /** @default ANTIFORGERY_LIFETIME_MS (one hour) */
  readonly lifetimeMs?: number;
}

/** What a GET page needs: the cookie id to set (when new) and the token for the form field. */
export interface IssuedAntiforgery {
  readonly cookieId: string;
  /** True when `cookieId` is new and the cookie must be (re)set. */
  readonly newCookie: boolean;
  readonly token: string;
}

/** What a POST presented. `token` is the raw form field (possibly repeated, or not a string). */
export interface AntiforgeryPresented {
  readonly cookieId: string | undefined;
  readonly token: unknown;
  readonly origin: string | undefined;
  readonly referer: string | undefined;
}

export type AntiforgeryVerdict =
  { readonly ok: true } | { readonly ok: false; readonly reason: AntiforgeryFailure };

/**
 * Double-submit antiforgery bound to the browser, stateless across nodes:
 *
 * - The GET page sets the cookie `svc_af` to a random id (reused while the browser still has a valid
 *   one, so that two tabs keep working) and puts `<issuedAt>.<HMAC-SHA256(key, cookieId.issuedAt)>` in the
 *   form. Only the server can mint a token, and a token works only with its own cookie, so a form
 *   submitted from another browser ("cross-browser") fails.
 * - The POST must come from the public origin: `Origin` when the browser sends it, else `Referer`.
 *   When both are missing the post is refused (OWASP CSRF cheat sheet: "we recommend blocking"); every
 *   current browser sends `Origin` on a form POST, and the pages' `Referrer-Policy: same-origin` keeps it
 *   from being `null`. `Origin: null` (sandboxed frames, privacy redirects) is refused too.
 * - A token older than the lifetime, or dated in the future, fails.
 */
export class Antiforgery {
  readonly #key: Buffer;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #publicOrigin: string;
  readonly #lifetimeMs: number;

  constructor(deps: AntiforgeryDeps) {
    if (deps.key.length < 32) throw new Error('The antiforgery key must be at least 32 bytes.');
    this.#key = deps.key;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#publicOrigin = new URL(deps.publicOrigin).origin;
    this.#lifetimeMs = deps.lifetimeMs ?? ANTIFORGERY_LIFETIME_MS;
  }

  /** A token for a form, reusing the browser's cookie id when it has a well-formed one. */
  issue(existingCookieId: string | undefined): IssuedAntiforgery {
    const reuse = existingCookieId !== undefined && COOKIE_ID.test(existingCookieId);
    const cookieId = reuse ? existingCookieId : this.#ids.secret();
    const issuedAt = this.#clock.now();
    return { cookieId, newCookie: !reuse, token: `${issuedAt}.${this.#mac(cookieId, issuedAt)}` };
  }

  /** Checks a submission; the reason is for logs only. */
  verify(presented: AntiforgeryPresented): AntiforgeryVerdict {
    const origin = this.#checkOrigin(presented.origin, presented.referer);
    if (origin !== undefined) return { ok: false, reason: origin };
    const { cookieId, token } = presented;
    if (cookieId === undefined || !COOKIE_ID.test(cookieId)) return { ok: false, reason: 'missing_cookie' };
    if (typeof token !== 'string' || token === '') {
      // A repeated field arrives as an array: not a token either.
      return { ok: false, reason: Array.isArray(token) ? 'invalid_token' : 'missing_token' };
    }
    const match = TOKEN.exec(token);
    const issuedAt = Number(match?.[1]);
    const mac = match?.[2];
    if (
      mac === undefined ||
      !Number.isSafeInteger(issuedAt) ||
      !safeEqual(mac, this.#mac(cookieId, issuedAt))
    ) {
      return { ok: false, reason: 'invalid_token' };
    }
    const now = this.#clock.now();
    if (issuedAt > now + FUTURE_SKEW_MS) return { ok: false, reason: 'invalid_token' };
    if (now - issuedAt > this.#lifetimeMs) return { ok: false, reason: 'expired' };
    return { ok: true };
  }

  #checkOrigin(origin: string | undefined, referer: string | undefined): AntiforgeryFailure | undefined {
    if (origin !== undefined) return origin === this.#publicOrigin ? undefined : 'cross_origin';
    if (referer === undefined) return 'unknown_origin';
    try {
      return new URL(referer).origin === this.#publicOrigin ? undefined : 'cross_origin';
    } catch {
      return 'cross_origin';
    }
  }

  #mac(cookieId: string, issuedAt: number): string {
    return createHmac('sha256', this.#key).update(`${cookieId}.${issuedAt}`, 'utf8').digest('base64url');
  }
}
