import type { AccountOperations } from '../account/account-operations.js';
import type { AppOwnedUi } from '../headless/app-owned-ui.js';
import type { InvitationAcceptance } from '../invitations/invitation-acceptance.js';
import type { Clock } from '../kernel/clock.js';
import type { AuthorizeFlow } from '../oauth/authorize/authorize-flow.js';
import type { EmailOtpSteps } from '../oauth/authorize/email-otp-steps.js';
import type { EmailSignupSteps } from '../oauth/authorize/email-signup-steps.js';
import type { MagicLinkLanding } from '../oauth/authorize/magic-link-landing.js';
import type { PhoneOtpSteps } from '../oauth/authorize/phone-otp-steps.js';
import type { SignupSteps } from '../oauth/authorize/signup-steps.js';
import type { Antiforgery } from './antiforgery.js';
import type { CookieSite } from './cookies.js';
import type { EndSession } from './logout/end-session.js';
import type { HostedLogout } from './logout/hosted-logout.js';

/**
 * What GET /authorize and the hosted sign-in routes need. `site.authBase` must be the prefix the hosted
 * plugin is mounted at, and `site.publicOrigin` the origin the browser uses (cookies, antiforgery).
 */
export interface HostedSignInDeps {
  readonly flow: AuthorizeFlow;
  readonly logout: HostedLogout;
  /** RP-initiated logout at `/session/end`. */
  readonly endSession: EndSession;
  readonly antiforgery: Antiforgery;
  readonly site: CookieSite;
  /** For the session cookie's Max-Age. */
  readonly clock: Clock;
  /** Password reset: the hosted /password/forgot and /password/reset pages (absent: not mapped). */
  readonly account?: AccountOperations;
  /** Invitation acceptance: the hosted /invitations/accept pages (absent: not mapped). */
  readonly invitations?: InvitationAcceptance;
  /**
   * Phone sign-in and phone signup pages; absent when SMS is not configured (the pages then say phone
   * sign-in is not available, and no page links to them).
   */
  readonly phoneOtp?: PhoneOtpSteps;
  /** Signup with email and password: /signup (absent: not mapped, and no page links to it). */
  readonly signup?: SignupSteps;
  /** Email codes and sign-in links: /login/email-otp and friends (absent: not mapped, and no page links to them). */
  readonly emailOtp?: EmailOtpSteps;
  /** Signup with an emailed code (the headless /signup/email-otp routes; wired with emailOtp). */
  readonly emailSignup?: EmailSignupSteps;
  /** The page an emailed sign-in link opens: /magic-link (absent: not mapped). */
  readonly magicLinkLanding?: MagicLinkLanding;
  /** An app-owned sign-in UI that /authorize sends browsers to instead of these pages (headlessUiUrl). */
  readonly appUi?: AppOwnedUi;
}
