import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../account/password-reset.js';
import { formError } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import {
  passwordHiddenFields,
  type PasswordFormContext,
  type PasswordPageContext,
} from './password-forgot-page.js';

/** Field names of the reset form (snake_case like every hosted form). */
export const PASSWORD_RESET_FIELDS = Object.freeze({
  /** The reset token from the emailed link: a secret, so only ever in the link and this hidden field. */
  token: 'token',
  newPassword: 'new_password',
  confirmPassword: 'confirm_password',
});

/** Copy of the reset form's inline errors, in one place so that pages and tests agree. */
export const PASSWORD_RESET_MESSAGES = Object.freeze({
  newPasswordRequired: 'Enter a new password.',
  length: `Choose a password of ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters.`,
  mismatch: 'The two passwords do not match.',
});

export interface ResetPasswordPageInput extends PasswordFormContext {
  readonly token: string;
  /** An inline error, for example PASSWORD_RESET_MESSAGES.mismatch. */
  readonly error?: string;
}

/**
 * GET {authBase}/password/reset?token=…: the new password twice. Opening the link does not use the
 * token; posting this form (to /password/reset/submit) does.
 */
export function renderResetPasswordPage(input: ResetPasswordPageInput): string {
  const body = html`<form method="post" action="${input.authBase}/password/reset/submit">
    ${passwordHiddenFields(input, { [PASSWORD_RESET_FIELDS.token]: input.token })} ${formError(input.error)}
    <div class="field">
      <label for="new-password">New password</label>
      <input
        id="new-password"
        name="${PASSWORD_RESET_FIELDS.newPassword}"
        type="password"
        autocomplete="new-password"
        minlength="${MIN_PASSWORD_LENGTH}"
        maxlength="${MAX_PASSWORD_LENGTH}"
        required
        autofocus
        ${
          input.error === undefined
            ? html`aria-describedby="password-rules"`
            : html`aria-invalid="true" aria-describedby="form-error password-rules"`
        }
      />
      <p class="muted" id="password-rules">At least ${MIN_PASSWORD_LENGTH} characters.</p>
    </div>
    <div class="field">
      <label for="confirm-password">Confirm new password</label>
      <input
        id="confirm-password"
        name="${PASSWORD_RESET_FIELDS.confirmPassword}"
        type="password"
        autocomplete="new-password"
        maxlength="${MAX_PASSWORD_LENGTH}"
        required
      />
    </div>
    <button class="button button-primary" type="submit">Change password</button>
  </form>`;
  return renderLayout({ authBase: input.authBase, title: 'Choose a new password', body });
}

/** An unknown, used or expired link (or one whose account was deactivated): ask for a new one. */
export function renderResetLinkInvalidPage(input: PasswordPageContext): string {
  const query = input.requestId === null ? '' : `?${new URLSearchParams({ request_id: input.requestId })}`;
  const body = html`<p>This link to reset your password is invalid, was already used, or has expired.</p>
    <p class="alt"><a href="${input.authBase}/password/forgot${query}">Get a new link</a></p>`;
  return renderLayout({ authBase: input.authBase, title: 'This reset link is no longer valid', body });
}

/**
 * After the reset: every session of the account has ended; the user signs in again with the new
 * password (no automatic sign-in: the link proves the mailbox, not the person), through the sign-in they
 * came from when there is one.
 */
export function renderPasswordChangedPage(input: {
  readonly authBase: string;
  /** The request's sign-in page, when a live request was carried along. */
  readonly signInHref?: string;
}): string {
  const next =
    input.signInHref === undefined
      ? html`<p>Go back to the application you were using and sign in with your new password.</p>`
      : html`<p>Sign in with your new password to continue.</p>
          <a class="button button-primary" href="${input.signInHref}">Sign in</a>`;
  const body = html`<p>Your password has been changed, and you have been signed out everywhere.</p>
    ${next}`;
  return renderLayout({ authBase: input.authBase, title: 'Password changed', body });
}
