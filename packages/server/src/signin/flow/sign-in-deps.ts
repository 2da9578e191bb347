import type { AccountOperations } from '../../account/account-operations.js';
import type { Clock } from '../../kernel/clock.js';
import type { BrowserLogout } from '../browser-logout.js';
import type { AuthorizeFlow } from './authorize-flow.js';
import type { BrowserContext } from './authorize-outcomes.js';

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
 * authorization request with its registered methods (`flow.methods`: an absent one is not offered), the
 * issuer session's logout and the app-owned UI redirect.
 */
export interface SignInDeps {
  readonly flow: AuthorizeFlow;
  readonly logout: BrowserLogout;
  /** For the session cookie's Max-Age. */
  readonly clock: Clock;
  /** Password reset (absent: not offered). */
  readonly account?: AccountOperations;
  /** An app-owned sign-in UI that /authorize sends browsers to instead of the hosted pages. */
  readonly appUi?: AppOwnedUiRedirect;
}
