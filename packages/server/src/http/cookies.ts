import { ANTIFORGERY_COOKIE } from './antiforgery.js';

/** The issuer session cookie: silent reuse of a sign-in by later /authorize requests in this browser. */
export const SESSION_COOKIE = 'svc_session';

/** Where the hosted cookies live: the auth base path on the public origin. */
export interface CookieSite {
  /** The auth base path (for example `/svc/auth`): the cookies' Path, so no other app on the host sees them. */
  readonly authBase: string;
  /** The configured PublicOrigin; decides `Secure`. */
  readonly publicOrigin: string;
}

/** Attributes of a hosted cookie, in the shape @fastify/cookie's `setCookie` takes. */
export interface HostedCookieOptions {
  readonly path: string;
  readonly httpOnly: true;
  readonly sameSite: 'lax';
  readonly secure: boolean;
  /** Seconds; omitted for a cookie that ends with the browser session. */
  readonly maxAge?: number;
}

/** The part of a request the readers need (Fastify's request with @fastify/cookie fits). */
export interface CookieRequest {
  readonly cookies?: Readonly<Record<string, string | undefined>>;
}

/** The part of a reply the writers need (Fastify's reply with @fastify/cookie fits). */
export interface CookieReply {
  setCookie(name: string, value: string, options: HostedCookieOptions): unknown;
  clearCookie(name: string, options: HostedCookieOptions): unknown;
}

/** Values the hosted cookies may hold: base64url and `.` (a handle plus a secret), at most 1024. */
const COOKIE_VALUE = /^[A-Za-z0-9._~-]{1,1024}$/;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `http://localhost`, `http://127.0.0.1` and `http://[::1]` on any port. */
export function isLoopbackHttpOrigin(publicOrigin: string): boolean {
  const url = new URL(publicOrigin);
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * `Secure` everywhere except a plain-http loopback origin (local development), where a browser would
 * drop a Secure cookie set over http. A plain-http origin outside loopback gets Secure cookies too, so
 * sign-in there fails visibly instead of sending the session over an unencrypted network.
 */
export function cookieSecure(publicOrigin: string): boolean {
  return !isLoopbackHttpOrigin(publicOrigin);
}

/**
 * Common attributes: HttpOnly (no script can read them), SameSite=Lax (sent on the top-level navigation
 * that a client's redirect to /authorize is, never on a cross-site POST), Path = the auth base.
 */
export function hostedCookieOptions(site: CookieSite, maxAgeSeconds?: number): HostedCookieOptions {
  const base = {
    path: site.authBase,
    httpOnly: true,
    sameSite: 'lax',
    secure: cookieSecure(site.publicOrigin),
  } as const;
  return maxAgeSeconds === undefined ? base : { ...base, maxAge: maxAgeSeconds };
}

/** Session cookie attributes; Max-Age counts down to the session's expiry (never negative). */
export function sessionCookieOptions(site: CookieSite, expiresAt: number, now: number): HostedCookieOptions {
  return hostedCookieOptions(site, Math.max(0, Math.ceil((expiresAt - now) / 1000)));
}

/** Sets the issuer session cookie until `expiresAt` (epoch ms; `now` from the injected clock). */
export function setSessionCookie(
  reply: CookieReply,
  site: CookieSite,
  value: string,
  expiresAt: number,
  now: number,
): void {
  if (!COOKIE_VALUE.test(value))
    throw new Error('A session cookie value must be 1-1024 URL-safe characters.');
  reply.setCookie(SESSION_COOKIE, value, sessionCookieOptions(site, expiresAt, now));
}

/** Ends the issuer session cookie (same Path and attributes, so the browser replaces it). */
export function clearSessionCookie(reply: CookieReply, site: CookieSite): void {
  reply.clearCookie(SESSION_COOKIE, hostedCookieOptions(site));
}

/** The issuer session cookie's value, or undefined when absent or not a value Svc could have set. */
export function readSessionCookie(request: CookieRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE];
  return value !== undefined && COOKIE_VALUE.test(value) ? value : undefined;
}

/** The antiforgery cookie's value as presented (checked by Antiforgery.verify). */
export function readAntiforgeryCookie(request: CookieRequest): string | undefined {
  return request.cookies?.[ANTIFORGERY_COOKIE];
}

/** Sets the antiforgery cookie for the browser session (the token inside the form carries the expiry). */
export function setAntiforgeryCookie(reply: CookieReply, site: CookieSite, cookieId: string): void {
  reply.setCookie(ANTIFORGERY_COOKIE, cookieId, hostedCookieOptions(site));
}
