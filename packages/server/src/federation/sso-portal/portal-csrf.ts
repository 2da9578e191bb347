import { createHmac } from 'node:crypto';
import { safeEqual } from '../../kernel/crypto.js';

/**
 * The portal's antiforgery token: an HMAC of the portal session's id (docs/decisions/sso-portal-csrf.md).
 * It is bound to the session, so it needs no cookie or storage of its own and ends with the session; the
 * page puts it in every form (`_csrf`) and a script calling the JSON API sends it as `x-svc-csrf`.
 */
export class PortalCsrf {
  readonly #key: Buffer;
  readonly #publicOrigin: string;

  /** `key`: at least 32 bytes, derived from the master key for this purpose only. */
  constructor(key: Buffer, publicOrigin: string) {
    this.#key = key;
    this.#publicOrigin = publicOrigin;
  }

  tokenFor(sessionId: string): string {
    return createHmac('sha256', this.#key).update(`sso-portal:${sessionId}`).digest('base64url');
  }

  /**
   * Whether a state-changing request may run: it carries the session's token, and its Origin (or, when a
   * browser sends none, its Referer) is the PublicOrigin.
   */
  allows(
    sessionId: string,
    token: unknown,
    origin: string | undefined,
    referer: string | undefined,
  ): boolean {
    if (!this.#sameOrigin(origin, referer)) return false;
    return typeof token === 'string' && safeEqual(token, this.tokenFor(sessionId));
  }

  #sameOrigin(origin: string | undefined, referer: string | undefined): boolean {
    if (origin !== undefined) return origin === this.#publicOrigin;
    if (referer === undefined) return false;
    try {
      return new URL(referer).origin === this.#publicOrigin;
    } catch {
      return false;
    }
  }
}
