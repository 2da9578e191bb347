import {
  DEFAULT_HEADLESS_BASE_PATH,
  type SvcHeadlessActionResult,
  type SvcHeadlessStartRequest,
} from './types.js';

/** The `fetch` signature the client needs; the global one, undici's or a test double all fit. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface SvcHeadlessClientOptions {
  /**
   * The server's origin (`https://id.example.com`), or any URL prefix in front of `basePath`. An empty
   * string makes same-origin relative requests in a browser.
   */
  readonly baseUrl: string;
  /** @default '/svc/auth/headless' (DEFAULT_HEADLESS_BASE_PATH) */
  readonly basePath?: string;
  /** @default globalThis.fetch */
  readonly fetch?: FetchLike;
}

/** A non-2xx answer of the headless API (or a 2xx answer that is not JSON). */
export class SvcHeadlessError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The parsed JSON body, the raw text when it was not JSON, or null when empty. */
  readonly body: unknown;

  constructor(status: number, body: unknown, message?: string) {
    super(message ?? messageOf(status, body));
    this.name = 'SvcHeadlessError';
    this.status = status;
    this.body = body;
  }

  /** The server's error code (`error` of the body) when it sent one. */
  get code(): string | undefined {
    const error = isRecord(this.body) ? this.body.error : undefined;
    return typeof error === 'string' ? error : undefined;
  }
}

/** The headless API; later versions add one typed method per route beside the generic `submit`. */
export interface SvcHeadlessClient {
  /** `POST /start`: opens an authorization request and answers its first view. */
  start(body: SvcHeadlessStartRequest): Promise<SvcHeadlessActionResult>;
  /** `GET /requests/{requestId}`: the current view of an open request (after a reload, say). */
  getRequest(requestId: string): Promise<SvcHeadlessActionResult>;
  /** `POST {route}` with a JSON body, for any route, including those without a typed method yet. */
  submit<T = SvcHeadlessActionResult>(route: string, body: object): Promise<T>;
}

/**
 * Creates a client of the headless API. Every request is credentialed (`credentials: 'include'`)
 * because the server keeps the sign-in in an HttpOnly issuer-session cookie, which a cross-origin
 * browser app only sends and receives on credentialed requests.
 */
export function createHeadlessClient(options: SvcHeadlessClientOptions): SvcHeadlessClient {
  // Called as a plain function below: browsers reject `fetch` invoked as a method of another object.
  const fetchImpl: FetchLike | undefined =
    options.fetch ?? (typeof globalThis.fetch === 'function' ? globalThis.fetch.bind(globalThis) : undefined);
  if (fetchImpl === undefined)
    throw new Error('No fetch implementation: pass options.fetch on runtimes without a global fetch.');
  const base =
    options.baseUrl.replace(/\/+$/, '') + normalizePath(options.basePath ?? DEFAULT_HEADLESS_BASE_PATH);

  const send = async <T>(method: 'GET' | 'POST', route: string, body?: object): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    const init: RequestInit = { method, headers, credentials: 'include' };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    const response = await fetchImpl(base + normalizePath(route), init);
    const text = await response.text();
    const parsed = parseJson(text);
    if (!response.ok)
      throw new SvcHeadlessError(response.status, parsed.ok ? parsed.value : text === '' ? null : text);
    if (!parsed.ok)
      throw new SvcHeadlessError(
        response.status,
        text,
        `The headless API answered ${response.status} with a body that is not JSON.`,
      );
    return parsed.value as T;
  };

  return {
    start: (body) => send('POST', '/start', body),
    getRequest: (requestId) => send('GET', `/requests/${encodeURIComponent(requestId)}`),
    submit: (route, body) => send('POST', route, body),
  };
}

/** `password/login` and `/password/login/` both become `/password/login`. */
function normalizePath(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `/${trimmed}`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function messageOf(status: number, body: unknown): string {
  const message = isRecord(body) ? body.message : undefined;
  return typeof message === 'string' && message !== '' ? message : `The headless API answered ${status}.`;
}
