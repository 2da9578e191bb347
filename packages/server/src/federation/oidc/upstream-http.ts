import type { CustomFetch, CustomFetchOptions } from 'openid-client';
import type { ProviderFetch } from '../../outbound/provider-fetch.js';
import { LOOPBACK_HOST } from '../../kernel/loopback.js';
import { SVC_VERSION } from '../../kernel/version.js';
import { OidcRelyingPartyError } from './rp-errors.js';

/** How long one request to a provider may take before the sign-in gives up on it. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;

export interface UpstreamHttpOptions {
  /**
   * The fetch every request to a provider goes through. Svc's wiring gives the transport that connects
   * only to addresses it vetted and answers a refusal instead (`providerFetch`); the global fetch unless
   * given (tests count and tamper).
   */
  readonly fetch?: ProviderFetch | undefined;
  /** Milliseconds before a request to a provider is abandoned ({@link DEFAULT_UPSTREAM_TIMEOUT_MS}). */
  readonly timeoutMs?: number | undefined;
  /**
   * Permits plain `http:` to a loopback host (127.0.0.0/8, `[::1]`, `localhost`): a provider run beside
   * Svc in development or tests, `SVC_ALLOW_INSECURE_LOOPBACK`. Off by default; never permits `http:` to
   * any other host. The transport decides whether loopback addresses are reached at all.
   */
  readonly allowHttpLoopback?: boolean | undefined;
  /** The `User-Agent` of every request (GitHub refuses requests without one). */
  readonly userAgent?: string | undefined;
}

/** How an operator lets Svc call a provider beside it (docs/decisions/federation-provider-destinations.md). */
const ON_THIS_MACHINE =
  'Svc calls a provider on loopback only with SVC_ALLOW_INSECURE_LOOPBACK=1 (allowInsecureLoopback), at localhost, 127.0.0.1 or [::1]';

/**
 * The HTTP rules of every request Svc sends to a provider: `https:` only (or `http:` on loopback when
 * allowed), a timeout, a `User-Agent`, no redirects followed, and a destination the transport accepted
 * (a refused one is `provider_configuration` naming the setting that allows it). Checked on each
 * request, so that a discovery document cannot point the sign-in at a plain-http endpoint or at this
 * machine's or a private network's services.
 */
export class UpstreamHttp {
  readonly timeoutMs: number;
  readonly allowHttpLoopback: boolean;
  readonly #fetch: ProviderFetch;
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
    const loopback = url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname);
    if (loopback && this.allowHttpLoopback) return true;
    throw new OidcRelyingPartyError(
      'provider_configuration',
      `The provider's ${what} (${url.origin}) must use https:${
        this.allowHttpLoopback ? ' (http: only on a loopback host)' : loopback ? ` ${ON_THIS_MACHINE}` : ''
      }.`,
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
    const answer = await this.#fetch(url, init);
    if (!('refused' in answer)) return answer;
    const { origin } = new URL(url);
    throw new OidcRelyingPartyError(
      'provider_configuration',
      answer.refused === 'loopback'
        ? `The provider's endpoint (${origin}) is on this machine: ${ON_THIS_MACHINE}.`
        : `The provider's endpoint (${origin}) is not on the public internet: Svc calls a provider on a private network only when SVC_PROVIDER_ALLOWED_NETWORKS (providerFetch.allowedPrivateNetworks) lists its addresses.`,
    );
  };

  /** A signal that aborts after the timeout, for requests made through oauth4webapi directly. */
  signal(): AbortSignal {
    return AbortSignal.timeout(this.timeoutMs);
  }
}
