import { svcDashboardSessionSchema, type Page, type SvcDashboardSession } from '@svc/contract';

/**
 * The dashboard base (`/svc` unless SVC_DASHBOARD_BASE moved it): the bundle is served from
 * `{base}/assets/`, so the base is the folder above this module's own URL.
 */
export const DASHBOARD_BASE = new URL(/* @vite-ignore */ '..', import.meta.url).pathname.replace(/\/$/, '');

const ADMIN_API = `${DASHBOARD_BASE}/admin/auth/api`;

/** A contract schema, or anything else that checks an unknown body and types it. */
export interface Parser<T> {
  parse(value: unknown): T;
}

/** A refused call, with the server's own `message`. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function call<T>(url: string, parser: Parser<T>, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, credentials: 'same-origin' });
  const body: unknown = await response.json().catch(() => undefined);
  if (response.ok) return parser.parse(body);
  const message =
    typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string'
      ? body.message
      : `The server answered ${response.status}.`;
  throw new ApiError(response.status, message);
}

/** Starts the hosted sign-in; the server sends the browser back to the dashboard afterwards. */
export function signIn(): void {
  window.location.assign(`${DASHBOARD_BASE}/login`);
}

/** Who is signed in, or undefined when the session is gone (the route answers 404). */
export async function loadSession(): Promise<SvcDashboardSession | undefined> {
  try {
    return await call(`${DASHBOARD_BASE}/api/session`, svcDashboardSessionSchema);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * The operator APIs with the session cookie. Every unauthorized call is a 404, so a 404 whose session
 * has ended (expired, revoked, signed out elsewhere) sends the browser to sign in again.
 */
async function adminCall<T>(path: string, parser: Parser<T>, init?: RequestInit): Promise<T> {
  try {
    return await call(`${ADMIN_API}${path}`, parser, init);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && (await loadSession()) === undefined) signIn();
    throw error;
  }
}

export interface OperatorApi {
  /** One page of a list (`/users`, `/clients`, `/sessions`…), after `cursor` when given. */
  list<T>(path: string, parser: Parser<Page<T>>, cursor: string | null): Promise<Page<T>>;
  /** A state-changing call: JSON, with the session's antiforgery token. */
  post<T>(path: string, body: unknown, parser: Parser<T>): Promise<T>;
}

export function operatorApi(session: SvcDashboardSession): OperatorApi {
  return {
    list: (path, parser, cursor) =>
      adminCall(`${path}${cursor === null ? '' : `?${new URLSearchParams({ cursor }).toString()}`}`, parser),
    post: (path, body, parser) =>
      adminCall(path, parser, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-csrf': session.csrfToken },
        body: JSON.stringify(body),
      }),
  };
}

/** What a failed call shows inline. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
