import { ANTIFORGERY_FIELD } from '../../http/antiforgery.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

/** The field that carries the emailed link's token from the landing page to its post. */
export const MAGIC_LINK_TOKEN_FIELD = 'token';

export interface MagicLinkPageInput {
  readonly authBase: string;
  /** From `issueAntiforgeryToken()` on the GET that renders the page. */
  readonly antiforgeryToken: string;
  /** The token of the emailed link, posted back as is. */
  readonly token: string;
}

/**
 * GET /magic-link?token=…: the page an emailed sign-in link opens. Opening it uses nothing (mail
 * scanners and link previews fetch links); the Continue button posts the token to POST /magic-link.
 */
export function renderMagicLinkPage(input: MagicLinkPageInput): string {
  const body = html`<p>Continue to finish signing in.</p>
    <form method="post" action="${input.authBase}/magic-link">
      <input type="hidden" name="${ANTIFORGERY_FIELD}" value="${input.antiforgeryToken}" />
      <input type="hidden" name="${MAGIC_LINK_TOKEN_FIELD}" value="${input.token}" />
      <button class="button button-primary" type="submit">Continue</button>
    </form>`;
  return renderLayout({ authBase: input.authBase, title: 'Sign in', heading: 'Continue signing in', body });
}
