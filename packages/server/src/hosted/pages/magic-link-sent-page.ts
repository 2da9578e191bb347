import { formError, hiddenFormFields, type HostedFormContext } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { continueTo } from './continue-to.js';
import { emailSignInHref } from './email-sign-in-page.js';
import { resendNotice } from './fields.js';

export interface MagicLinkSentPageInput extends HostedFormContext {
  /** The masked address the link went to (if it went anywhere). */
  readonly target: string;
  readonly clientName?: string;
  /** An inline error: a new link asked for too soon. */
  readonly error?: string;
  /** How long until a new link may be asked for (ms); said only while in the future. */
  readonly resendInMs?: number;
}

/**
 * The request waits for its emailed sign-in link. The words hold whether or not the address has an
 * account; the link works only in this browser. "Send a new link" posts to /login/magic-link/resend
 * (the same address again); "Enter a different email" goes back to the email sign-in page.
 */
export function renderMagicLinkSentPage(input: MagicLinkSentPageInput): string {
  const body = html`${continueTo(input.clientName)}
    <p>
      If <strong>${input.target}</strong> has an account, we emailed it a sign-in link. It expires in 15
      minutes.
    </p>
    <p class="muted">Open the link in this browser to continue.</p>
    <form method="post" action="${input.authBase}/login/magic-link/resend">
      ${hiddenFormFields(input)} ${formError(input.error)} ${resendNotice('link', input.resendInMs)}
      <button class="button button-secondary" type="submit">Send a new link</button>
    </form>
    <p class="alt">
      <a href="${emailSignInHref(input.authBase, input.requestId)}">Enter a different email</a>
    </p>`;
  return renderLayout({ authBase: input.authBase, title: 'Check your email', body });
}
