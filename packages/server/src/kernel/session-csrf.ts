import { createHmac } from 'node:crypto';
import { safeEqual } from './crypto.js';

/**
 * The antiforgery token of a cookie session (the SSO setup portal's, the operator dashboard's): an HMAC of
 * the session's id (docs/reference/federation.md "Portal sessions"). It is bound to the session, so it needs
 * no cookie or storage of its own and ends with the session; a page puts it in every form (`_csrf`) and a
 * script calling a JSON API sends it as `x-svc-csrf`.
 */
export class SessionCsrf {
  readonly #key: Buffer;
  readonly #publicOrigin: string;
  readonly #purpose: string;

  /**
   * `key`: at least 32 bytes, derived from the master key for this purpose only; `purpose` names the
   * kind of session, so that no token of one kind is ever another's.
   */
  constructor(key: Buffer, publicOrigin: string, purpose: string) {
    this.#key = key;
    this.#publicOrigin = publicOrigin;
    this.#purpose = purpose;
  }

  tokenFor(sessionId: string): string {
    return createHmac('sha256', this.#key).update(`${this.#purpose}:${sessionId}`).digest('base64url');
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
