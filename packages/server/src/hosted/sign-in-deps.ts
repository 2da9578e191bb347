import type { SignInDeps } from '../signin/flow/sign-in-deps.js';
import type { Antiforgery } from '../http/antiforgery.js';
import type { CookieSite } from '../http/cookies.js';
import type { EndSession } from './logout/end-session.js';

/**
 * What GET /authorize and the hosted sign-in routes need: the sign-in, the browser binding, and the
 * hosted-only RP-initiated logout. `site.authBase` must be the prefix the hosted plugin is mounted at,
 * and `site.publicOrigin` the origin the browser uses (cookies, antiforgery).
 */
export interface HostedSignInDeps extends SignInDeps {
  /** RP-initiated logout at `/session/end`. */
  readonly endSession: EndSession;
  readonly antiforgery: Antiforgery;
  readonly site: CookieSite;
}
