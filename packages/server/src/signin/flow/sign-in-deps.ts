import type { AccountOperations } from '../../account/account-operations.js';
import type { InvitationAcceptance } from '../../invitations/invitation-acceptance.js';
import type { Clock } from '../../kernel/clock.js';
import type { BrowserLogout } from '../browser-logout.js';
import type { AuthorizeFlow } from './authorize-flow.js';
import type { BrowserContext } from './authorize-outcomes.js';
import type { EmailOtpSteps } from '../methods/email-otp/email-otp-steps.js';
import type { EmailSignupSteps } from '../methods/signup/email-signup-steps.js';
import type { MagicLinkLanding } from '../methods/magic-link/magic-link-landing.js';
import type { PhoneOtpSteps } from '../methods/phone-otp/phone-otp-steps.js';
import type { SignupSteps } from '../methods/signup/signup-steps.js';

/**
 * Where GET /authorize sends a browser that must act, when the deployment has its own sign-in UI
 * (headlessUiUrl) instead of the hosted pages. Part of the sign-in's configuration; the headless API,
 * which that UI drives, computes the address.
 */
export interface AppOwnedUiRedirect {
  location(requestId: string, browser: BrowserContext & { readonly browserId: string }): Promise<string>;
}

/**
 * The sign-in as every surface sees it (the hosted pages and the headless API alike): the flow of an
 * authorization request, the steps of each configured method (an absent one is not offered), the
 * issuer session's logout and the app-owned UI redirect.
 */
export interface SignInDeps {
  readonly flow: AuthorizeFlow;
  readonly logout: BrowserLogout;
  /** For the session cookie's Max-Age. */
  readonly clock: Clock;
  /** Password reset (absent: not offered). */
  readonly account?: AccountOperations;
  /** Invitation acceptance (absent: not offered). */
  readonly invitations?: InvitationAcceptance;
  /** Phone sign-in and phone signup; absent when SMS is not configured. */
  readonly phoneOtp?: PhoneOtpSteps;
  /** Signup with email and password (absent: not offered). */
  readonly signup?: SignupSteps;
  /** Email codes and sign-in links (absent: not offered). */
  readonly emailOtp?: EmailOtpSteps;
  /** Signup with an emailed code (wired with emailOtp). */
  readonly emailSignup?: EmailSignupSteps;
  /** What an emailed sign-in link opens. */
  readonly magicLinkLanding?: MagicLinkLanding;
  /** An app-owned sign-in UI that /authorize sends browsers to instead of the hosted pages. */
  readonly appUi?: AppOwnedUiRedirect;
}
