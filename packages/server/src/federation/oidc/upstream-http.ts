import type { CustomFetch, CustomFetchOptions } from 'openid-client';
import { LOOPBACK_HOST } from '../../kernel/loopback.js';
import { SVC_VERSION } from '../../version.js';
import { OidcRelyingPartyError } from './rp-errors.js';

/** How long one request to a provider may take before the sign-in gives up on it. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;

export interface UpstreamHttpOptions {
  /** The fetch every request to a provider goes through; the global fetch unless given (tests count and tamper). */
  readonly fetch?: typeof globalThis.fetch | undefined;
  /** Milliseconds before a request to a provider is abandoned ({@link DEFAULT_UPSTREAM_TIMEOUT_MS}). */
  readonly timeoutMs?: number | undefined;
  /**
   * Permits plain `http:` to a loopback host (127.0.0.0/8, `[::1]`, `localhost`): a provider run beside
   * Svc in development or tests. Off by default; never permits `http:` to any other host.
   */
  readonly allowHttpLoopback?: boolean | undefined;
  /** The `User-Agent` of every request (GitHub refuses requests without one). */
  readonly userAgent?: string | undefined;
}

/**
 * The HTTP rules of every request Svc sends to a provider: `https:` only (or `http:` on loopback when
 * allowed), a timeout, a `User-Agent`, no redirects followed. Checked on each request, so that a
 * discovery document cannot point the sign-in at a plain-http endpoint.
 */
export class UpstreamHttp {
  readonly timeoutMs: number;
  readonly allowHttpLoopback: boolean;
  readonly #fetch: typeof globalThis.fetch;
  readonly #userAgent: string;

  constructor(options: UpstreamHttpOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
    this.allowHttpLoopback = options.allowHttpLoopback ?? false;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#userAgent = options.userAgent ?? `Svc/${SVC_VERSION}`;
  }

  /** The timeout in seconds, as openid-client counts it. */
  get timeoutSeconds(): number {
    return this.timeoutMs / 1000;
  }

  /**
   * Refuses a URL Svc may not call (`provider_configuration`); answers true when it is plain `http:` on
   * loopback, which the library must then be told to allow.
   */
  checkUrl(value: string, what: string): boolean {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new OidcRelyingPartyError('provider_configuration', `The provider's ${what} is not a URL.`);
    }
    if (url.protocol === 'https:') return false;
    if (url.protocol === 'http:' && this.allowHttpLoopback && LOOPBACK_HOST.test(url.hostname)) return true;
    throw new OidcRelyingPartyError(
      'provider_configuration',
      `The provider's ${what} (${url.origin}) must use https:${this.allowHttpLoopback ? ' (http: only on a loopback host)' : ''}.`,
    );
  }

  /** The fetch handed to openid-client and oauth4webapi. */
  readonly customFetch: CustomFetch = async (url: string, options: CustomFetchOptions): Promise<Response> => {
    this.checkUrl(url, 'endpoint');
    const init: RequestInit = {
      method: options.method,
      headers: { ...options.headers, 'user-agent': this.#userAgent },
      redirect: 'manual',
      signal: options.signal ?? AbortSignal.timeout(this.timeoutMs),
    };
    if (options.body !== undefined) init.body = options.body as BodyInit | null;
    if (options.duplex !== undefined) (init as RequestInit & { duplex: 'half' }).duplex = options.duplex;
    return this.#fetch(url, init);
  };

  /** A signal that aborts after the timeout, for requests made through oauth4webapi directly. */
  signal(): AbortSignal {
    return AbortSignal.timeout(this.timeoutMs);
  }
}
