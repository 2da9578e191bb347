import { hostedCookieOptions, type CookieReply, type CookieRequest } from '../http/cookies.js';

/** The dashboard session's cookie: its secret. */
export const DASHBOARD_SESSION_COOKIE = 'svc_dashboard';

/** The sign-in in flight: its state and PKCE verifier, sealed (login-state.ts). */
export const DASHBOARD_LOGIN_COOKIE = 'svc_dashboard_login';

/** Where the dashboards' state-changing calls put the session's antiforgery token. */
export const DASHBOARD_CSRF_HEADER = 'x-svc-csrf';

/** A session secret is base64url of 256 bits; anything else is no session and never reaches the database. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Where the dashboard cookies live: the dashboard base (the operator APIs are under it) on the PublicOrigin. */
export interface DashboardSite {
  readonly dashboardBase: string;
  readonly publicOrigin: string;
}

/** The cookie attributes (HttpOnly, SameSite=Lax, `Secure` on https, Path the dashboard base). */
export function dashboardCookieOptions(site: DashboardSite, maxAgeSeconds?: number) {
  return hostedCookieOptions(
    { authBase: site.dashboardBase, publicOrigin: site.publicOrigin },
    maxAgeSeconds,
  );
}

/** Sets the session cookie until `expiresAt`. */
export function setDashboardCookie(
  reply: CookieReply,
  site: DashboardSite,
  secret: string,
  expiresAt: number,
  now: number,
): void {
  const seconds = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  reply.setCookie(DASHBOARD_SESSION_COOKIE, secret, dashboardCookieOptions(site, seconds));
}

/** A cookie value when it has the shape of a session secret. */
function asSecret(value: string | undefined): string | undefined {
  return value !== undefined && SECRET.test(value) ? value : undefined;
}

/** The cookie's secret when it has the shape of one. */
export function readDashboardSecret(request: CookieRequest): string | undefined {
  return asSecret(request.cookies?.[DASHBOARD_SESSION_COOKIE]);
}

/**
 * The session secret in a raw Cookie header (the operator APIs read it without the cookie plugin);
 * undefined when there is none of the right shape.
 */
export function dashboardSecretIn(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator !== -1 && part.slice(0, separator).trim() === DASHBOARD_SESSION_COOKIE) {
      return asSecret(part.slice(separator + 1).trim());
    }
  }
  return undefined;
}
