import { html } from '../hosted/html.js';
import { renderLayout } from '../hosted/layout.js';

/**
 * GET {authBase}/email/verify?token=…: a one-time confirmation page. Visiting the link does not use the
 * token — mail scanners and link previews fetch links — the button posts it. No antiforgery token is
 * needed: the posted token is itself the credential, and a forged post could only verify the address
 * that the token was mailed to.
 */
export function renderEmailVerificationPage(authBase: string, token: string): string {
  return renderLayout({
    authBase,
    title: 'Verify your email',
    body: html`<p>Confirm that this email address belongs to you.</p>
      <form method="post" action="${authBase}/email/verify/confirm">
        <input type="hidden" name="token" value="${token}" />
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
