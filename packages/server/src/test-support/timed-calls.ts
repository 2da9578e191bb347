import { basicAuth, form } from './oauth-http.js';

/** An HTTP status, or why there was none: no answer within the timeout, or a broken connection. */
export type Outcome = number | 'timeout' | 'network-error';

/** One call as the caller saw it; never thrown. */
export interface Reply {
  readonly status: Outcome;
  /** The parsed JSON body, or null (no body, not JSON, or no answer). */
  readonly body: Record<string, unknown> | null;
  readonly retryAfter: string | null;
  /** `performance.now()` when the request left. */
  readonly startedAt: number;
  readonly durationMs: number;
  /** For a network error, its code (ECONNREFUSED, ECONNRESET…). */
  readonly detail?: string;
}

const AUTH = '/svc/auth';

/**
 * `fetch` with a deadline: a hang becomes the outcome `timeout` after `timeoutMs`, a refused or reset
 * connection `network-error`, so that a load never gets stuck and every fault leaves a record.
 */
export async function timedFetch(url: string, init: RequestInit, timeoutMs: number): Promise<Reply> {
  const startedAt = performance.now();
  const elapsed = () => performance.now() - startedAt;
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let body: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
    } catch {
      // not JSON: Fastify's bare 500 or an empty 401 keep body null
    }
    const retryAfter = response.headers.get('retry-after');
    return { status: response.status, body, retryAfter, startedAt, durationMs: elapsed() };
  } catch (error) {
    const err = error as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError') {
      return { status: 'timeout', body: null, retryAfter: null, startedAt, durationMs: elapsed() };
    }
    return {
      status: 'network-error',
      body: null,
      retryAfter: null,
      startedAt,
      durationMs: elapsed(),
      detail: err.cause?.code ?? err.message,
    };
  }
}

export interface ConfidentialClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** The calls a signed-in first-party app makes, against any node's base address, each timed. */
export class SessionCalls {
  readonly #client: ConfidentialClient;
  readonly #timeoutMs: number;

  constructor(client: ConfidentialClient, timeoutMs: number) {
    this.#client = client;
    this.#timeoutMs = timeoutMs;
  }

  /** The direct JSON password login (client_secret_basic); 200 carries `tokens`. */
  login(address: string, email: string, password: string): Promise<Reply> {
    return timedFetch(
      `${address}${AUTH}/password/login`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: this.#basic() },
        body: JSON.stringify({ email, password, clientId: this.#client.clientId }),
      },
      this.#timeoutMs,
    );
  }

  /** grant_type=refresh_token at /token (client_secret_basic). */
  refresh(address: string, refreshToken: string): Promise<Reply> {
    return timedFetch(
      `${address}${AUTH}/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: this.#basic() },
        body: form({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      },
      this.#timeoutMs,
    );
  }

  /** GET /userinfo: validates the access token (signature, session, user) on that node. */
  userinfo(address: string, accessToken: string): Promise<Reply> {
    return timedFetch(
      `${address}${AUTH}/userinfo`,
      { headers: { authorization: `Bearer ${accessToken}` } },
      this.#timeoutMs,
    );
  }

  jwks(address: string): Promise<Reply> {
    return timedFetch(`${address}${AUTH}/.well-known/jwks.json`, {}, this.#timeoutMs);
  }

  #basic(): string {
    return basicAuth(this.#client.clientId, this.#client.clientSecret);
  }
}

/** The tokens of a login (`tokens`, camelCase) or a refresh (OAuth snake_case), or undefined. */
export function tokensOf(reply: Reply): { accessToken: string; refreshToken: string } | undefined {
  if (reply.status !== 200 || reply.body === null) return undefined;
  const source = (reply.body.tokens ?? reply.body) as Record<string, unknown>;
  const accessToken = source.accessToken ?? source.access_token;
  const refreshToken = source.refreshToken ?? source.refresh_token;
  return typeof accessToken === 'string' && typeof refreshToken === 'string'
    ? { accessToken, refreshToken }
    : undefined;
}
