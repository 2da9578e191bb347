import { svcDashboardSessionSchema, type SvcDashboardSession } from '@svc/contract';
import { DASHBOARD_BASE } from './base.js';

/** The operator APIs the console calls, each below the dashboard base. */
const SURFACES = {
  auth: '/admin/auth/api',
  audit: '/admin/audit/api',
  email: '/admin/email/api',
  fga: '/admin/fga/api',
  calendar: '/admin/calendar/api',
} as const;
export type Surface = keyof typeof SURFACES;

/** A contract schema, or anything else that checks an unknown body and types it. */
export interface Parser<T> {
  parse(value: unknown): T;
}

/** For answers without a body (204) or whose body the console does not read. */
export const noBody: Parser<void> = { parse: () => undefined };

/** A field the server refused, as its `details` name it (`redirectUris.0`, `email`). */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

/** A refused call, with the server's own `error`, `message` and field `details`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: readonly FieldProblem[];
  /** From `Retry-After`, when the server said when to try again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    body: {
      code?: string | undefined;
      message?: string | undefined;
      details?: readonly FieldProblem[] | undefined;
    },
    retryAfterSeconds?: number,
  ) {
    super(body.message ?? `The server answered ${status}.`);
    this.status = status;
    this.code = body.code ?? 'error';
    this.details = body.details ?? [];
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export type QueryValues = Readonly<Record<string, string | number | boolean | null | undefined>>;

/** `path` with the query's given values (empty strings and nulls left out). */
export function withQuery(path: string, query: QueryValues = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** The URL of an operator API path, for links the browser follows itself (an export download). */
export function apiUrl(surface: Surface, path: string, query?: QueryValues): string {
  return withQuery(`${DASHBOARD_BASE}${SURFACES[surface]}${path}`, query);
}

function problemsOf(value: unknown): readonly FieldProblem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(
    (item): item is FieldProblem =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as FieldProblem).path === 'string' &&
      typeof (item as FieldProblem).message === 'string',
  );
}

async function call<T>(url: string, parser: Parser<T>, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, { ...init, credentials: 'same-origin' });
  const body: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  if (response.ok) return parser.parse(body);
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new ApiError(
    response.status,
    {
      code: typeof fields.error === 'string' ? fields.error : undefined,
      message: typeof fields.message === 'string' ? fields.message : undefined,
      details: problemsOf(fields.details),
    },
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

/** Starts the hosted sign-in; the server sends the browser back to `returnTo` afterwards. */
export function signIn(returnTo = `${window.location.pathname}${window.location.search}`): void {
  window.location.assign(withQuery(`${DASHBOARD_BASE}/login`, { returnTo }));
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

let csrfToken = '';

/** The signed-in session's antiforgery token, which every state-changing call sends. */
export function rememberSessionToken(session: SvcDashboardSession): void {
  csrfToken = session.csrfToken;
}

/**
 * Every unauthorized operator call is a 404, so a 404 whose session has ended (expired, revoked, signed
 * out elsewhere) sends the browser to sign in again, back to this page.
 */
async function operatorCall<T>(url: string, parser: Parser<T>, init?: RequestInit): Promise<T> {
  try {
    return await call(url, parser, init);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && (await loadSession()) === undefined) signIn();
    throw error;
  }
}

/** GET an operator API path. */
export function apiGet<T>(
  surface: Surface,
  path: string,
  parser: Parser<T>,
  query?: QueryValues,
): Promise<T> {
  return operatorCall(apiUrl(surface, path, query), parser);
}

/** A state-changing call: JSON (when there is a body), with the session's antiforgery token. */
export function apiSend<T>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  surface: Surface,
  path: string,
  body: unknown,
  parser: Parser<T>,
): Promise<T> {
  const headers: Record<string, string> = { 'x-svc-csrf': csrfToken };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return operatorCall(apiUrl(surface, path), parser, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
}

/** What a failed call shows. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError && error.retryAfterSeconds !== undefined) {
    return `${error.message} Try again in ${error.retryAfterSeconds} s.`;
  }
  return error instanceof Error ? error.message : String(error);
}
