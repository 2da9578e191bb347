import { HOSTED_FIELDS } from '../form.js';
import { html } from '../../http/pages/html.js';
import { BRAND, renderLayout } from '../../http/pages/layout.js';
import { signedInAs } from './grant-summary.js';

export interface EndSessionPageInput {
  readonly authBase: string;
  /** From `issueAntiforgeryToken()` on the response that renders the page. */
  readonly antiforgeryToken: string;
  /** Where the form posts (`{authBase}/session/end/confirm`). */
  readonly action: string;
  /** The logout request's parameters, posted back with the answer (name → value; absent ones left out). */
  readonly hidden: Readonly<Record<string, string>>;
  /** Who is signed in, so that the person sees which account they are signing out of. */
  readonly userEmail?: string;
}

/**
 * The question RP-initiated logout asks when the request cannot show that it comes from the signed-in
 * person's own application (OpenID Connect RP-Initiated Logout 1.0 §2). One button posts the form with
 * its antiforgery token; staying signed in needs nothing but closing the page, so a link that brought
 * someone here ends nothing by itself. No JavaScript.
 */
export function renderEndSessionPage(input: EndSessionPageInput): string {
  const hidden = Object.entries(input.hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
  const body = html`${signedInAs(input.userEmail, undefined)}
    <p>You will be signed out of ${BRAND} in this browser.</p>
    <form method="post" action="${input.action}">
      <input type="hidden" name="${HOSTED_FIELDS.antiforgery}" value="${input.antiforgeryToken}" />${hidden}
      <button class="button button-primary" type="submit">Sign out</button>
    </form>
    <p class="alt muted">If you did not ask to sign out, close this page: you stay signed in.</p>`;
  return renderLayout({
    authBase: input.authBase,
    title: 'Sign out',
    heading: `Sign out of ${BRAND}?`,
    body,
  });
}
