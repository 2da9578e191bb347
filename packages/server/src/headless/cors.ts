/** How long a browser may cache a preflight answer, in seconds. */
export const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Credentialed CORS of the headless API (docs/reference/sign-in.md "Headless API": cross-origin browser clients send credentialed
 * requests). Only the configured origins get CORS headers, each its own exact origin (a credentialed
 * answer may never say `*`); every other origin gets none, so the browser withholds the answer.
 */
export class HeadlessCors {
  readonly #allowed: ReadonlySet<string>;
  readonly #publicOrigin: string;

  constructor(options: { readonly allowedOrigins: readonly string[]; readonly publicOrigin: string }) {
    this.#allowed = new Set(options.allowedOrigins);
    this.#publicOrigin = new URL(options.publicOrigin).origin;
  }

  /** The response headers for a request from `origin` (the Origin header; absent: none needed). */
  headers(origin: string | undefined): Record<string, string> {
    if (origin === undefined || !this.#allowed.has(origin)) return {};
    // Retry-After is not a CORS-safelisted response header: without this a custom UI cannot read the wait
    // of a refused attempt.
    return {
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'Retry-After',
    };
  }

  /** The extra headers of a preflight answer for an allowed origin. */
  preflightHeaders(origin: string | undefined): Record<string, string> {
    if (origin === undefined || !this.#allowed.has(origin)) return {};
    return {
      ...this.headers(origin),
      'access-control-allow-methods': 'GET, POST',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    };
  }

  /**
   * Whether a state-changing request may run: no Origin (not a browser's cross-origin request), the
   * public origin itself, or a configured origin. A page on any other origin could otherwise make the
   * browser post with its cookies (a "simple" request needs no preflight), even if it cannot read the
   * answer.
   */
  mayPost(origin: string | undefined): boolean {
    return origin === undefined || origin === this.#publicOrigin || this.#allowed.has(origin);
  }

  /** True when cross-site use is configured: the cookies then need SameSite=None. */
  get crossSite(): boolean {
    return this.#allowed.size > 0;
  }
}
