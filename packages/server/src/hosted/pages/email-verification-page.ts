import { HOSTED_FIELDS } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

/** Field names of the confirmation form (the antiforgery field is every hosted form's `_csrf`). */
export const EMAIL_VERIFICATION_FIELDS = Object.freeze({
  /** The token from the emailed link: a secret, so only ever in the link and this hidden field. */
  token: 'token',
});

/**
 * GET {authBase}/email/verify?token=…: a one-time confirmation page. Visiting the link does not use the
 * token — mail scanners and link previews fetch links — the button posts it, with the antiforgery token
 * of this page like every hosted form.
 */
export function renderEmailVerificationPage(input: {
  readonly authBase: string;
  readonly antiforgeryToken: string;
  readonly token: string;
}): string {
  return renderLayout({
    authBase: input.authBase,
    title: 'Verify your email',
    body: html`<p>Confirm that this email address belongs to you.</p>
      <form method="post" action="${input.authBase}/email/verify/confirm">
        <input type="hidden" name="${HOSTED_FIELDS.antiforgery}" value="${input.antiforgeryToken}" />
        <input type="hidden" name="${EMAIL_VERIFICATION_FIELDS.token}" value="${input.token}" />
        <button class="button button-primary" type="submit">Verify email</button>
      </form>`,
  });
}

/** The page after the button: verified, or a link that is invalid, used or expired. */
export function renderEmailVerificationResult(authBase: string, verified: boolean): string {
  return verified
    ? renderLayout({
        authBase,
        title: 'Email verified',
        body: html`<p>Your email address is verified. You can close this page.</p>`,
      })
    : renderLayout({
        authBase,
        title: 'Link not valid',
        body: html`<p>
          This verification link is invalid, was already used or has expired. Ask for a new one.
        </p>`,
      });
}
