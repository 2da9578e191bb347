import type { AuthorizeView } from '../../oauth/authorize/authorize-params.js';
import { currentStepHref, requestPageHref } from '../form.js';

/**
 * The page of each `view` of /authorize (docs/reference/tokens-and-sessions.md "The authorization request") below the auth base;
 * `svc`, `login` and `password` are the request's current step (identify, or the password step when an
 * email login_hint came with view=password).
 */
const VIEW_PATHS: Readonly<Partial<Record<AuthorizeView, string>>> = Object.freeze({
  signup: '/signup',
  'forgot-password': '/password/forgot',
  'email-otp': '/login/email-otp',
  'phone-otp': '/login/phone-otp',
  'phone-otp-signup': '/signup/phone-otp',
});

/** Where a new authorization request that needs the user sends the browser first. */
export function viewEntryHref(authBase: string, requestId: string, view: AuthorizeView | null): string {
  const path = view === null ? undefined : VIEW_PATHS[view];
  if (path === undefined) return currentStepHref(authBase, requestId);
  return requestPageHref(authBase, path, requestId);
}
