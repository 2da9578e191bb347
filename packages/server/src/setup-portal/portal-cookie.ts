import { hostedCookieOptions, type CookieReply, type CookieRequest } from '../http/cookies.js';

/** The portal session's cookie: its secret. */
export const PORTAL_SESSION_COOKIE = 'svc_sso_portal';

/** A session secret is base64url of 256 bits; anything else is no session and never reaches the database. */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** Where the cookie lives: the portal's base path on the PublicOrigin. */
export interface PortalSite {
  readonly portalBase: string;
  readonly publicOrigin: string;
}

/**
 * Sets the session cookie until `expiresAt`: HttpOnly, `Secure` on https, SameSite=Lax (sent when the
 * IdP's answer redirects back to the portal, never on another site's POST), Path the portal's base, so
 * no other page of the host sees it.
 */
export function setPortalCookie(
  reply: CookieReply,
  site: PortalSite,
  secret: string,
  expiresAt: number,
  now: number,
): void {
  const seconds = Math.max(0, Math.ceil((expiresAt - now) / 1000));
  reply.setCookie(
    PORTAL_SESSION_COOKIE,
    secret,
    hostedCookieOptions({ authBase: site.portalBase, publicOrigin: site.publicOrigin }, seconds),
  );
}

/** The cookie's secret when it has the shape of one. */
export function readPortalCookie(request: CookieRequest): string | undefined {
  const value = request.cookies?.[PORTAL_SESSION_COOKIE];
  return value !== undefined && SECRET.test(value) ? value : undefined;
}
