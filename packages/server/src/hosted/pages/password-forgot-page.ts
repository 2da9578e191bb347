import { PASSWORD_RESET_TOKEN_LIFETIME_MS } from '../../account/password-reset.js';
import { MINUTE_MS } from '../../kernel/clock.js';
import { formError, HOSTED_FIELDS } from '../form.js';
import { html, type SafeHtml } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { altLink, emailField } from './fields.js';

/** What every password reset page may carry: the authorization request the user came from. */
export interface PasswordPageContext {
  readonly authBase: string;
  /** A live authorization request of this browser, carried along so that the pages lead back to it. */
  readonly requestId: string | null;
}

/** A form of the password reset pages: the antiforgery token from the GET that renders it. */
export interface PasswordFormContext extends PasswordPageContext {
  readonly antiforgeryToken: string;
}

export interface ForgotPasswordPageInput extends PasswordFormContext {
  /** Prefill: the address of the sign-in, or what the user typed before an error. */
  readonly email?: string;
  /** An inline error, for example HOSTED_MESSAGES.emailInvalid. */
  readonly error?: string;
  /** "Back to sign in": the request's current step, when there is a request. */
  readonly backHref?: string;
}

/**
 * The hidden fields of a password reset form: the antiforgery token, the request id when there is one,
 * and `extra` (the reset token). Without a request the page stands alone, so no empty `request_id`.
 */
export function passwordHiddenFields(
  context: PasswordFormContext,
  extra: Readonly<Record<string, string>> = {},
): SafeHtml {
  const fields: Record<string, string> = { [HOSTED_FIELDS.antiforgery]: context.antiforgeryToken };
  if (context.requestId !== null) fields[HOSTED_FIELDS.requestId] = context.requestId;
  return html`${Object.entries({ ...fields, ...extra }).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  )}`;
}

/** A link back to the sign-in the user came from, when there is one. */
export function backToSignIn(backHref: string | undefined): SafeHtml {
  return html`${backHref !== undefined && altLink(backHref, 'Back to sign in')}`;
}

/**
 * GET {authBase}/password/forgot: the email address to send a reset link to. Posts `email` to
 * /password/forgot/submit (the direct JSON helper owns POST /password/forgot).
 */
export function renderForgotPasswordPage(input: ForgotPasswordPageInput): string {
  const body = html`<p class="lead">
      Enter the email address of your account. We will email you a link to choose a new password.
    </p>
    <form method="post" action="${input.authBase}/password/forgot/submit">
      ${passwordHiddenFields(input)} ${formError(input.error)} ${emailField(input.email, input.error)}
      <button class="button button-primary" type="submit">Send reset link</button>
    </form>
    ${backToSignIn(input.backHref)}`;
  return renderLayout({ authBase: input.authBase, title: 'Reset your password', body });
}

/**
 * The page after the form: the same words whatever the address (known, unknown, without a password,
 * rate-limited), and no address on it, so that the page is byte-identical and reveals nothing.
 */
export function renderForgotPasswordSentPage(input: {
  readonly authBase: string;
  readonly backHref?: string;
}): string {
  const body = html`<p>
      If an account with a password exists for that address, we have sent it a link to choose a new password.
      The link works once and expires in ${PASSWORD_RESET_TOKEN_LIFETIME_MS / MINUTE_MS} minutes.
    </p>
    <p class="muted">No email? Check your spam folder, or wait a minute and ask again.</p>
    ${backToSignIn(input.backHref)}`;
  return renderLayout({ authBase: input.authBase, title: 'Check your email', body });
}
