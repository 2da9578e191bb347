import type { Clock } from '../kernel/clock.js';
import type { AuthorizeFlow } from '../oauth/authorize/authorize-flow.js';
import type { Antiforgery } from './antiforgery.js';
import type { CookieSite } from './cookies.js';
import type { HostedLogout } from './logout/hosted-logout.js';

/**
 * What GET /authorize and the hosted sign-in routes need. `site.authBase` must be the prefix the hosted
 * plugin is mounted at, and `site.publicOrigin` the origin the browser uses (cookies, antiforgery).
 */
export interface HostedSignInDeps {
  readonly flow: AuthorizeFlow;
  readonly logout: HostedLogout;
  readonly antiforgery: Antiforgery;
  readonly site: CookieSite;
  /** For the session cookie's Max-Age. */
  readonly clock: Clock;
}
