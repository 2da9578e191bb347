import {
  formError,
  hiddenFormFields,
  HOSTED_FIELDS,
  invalidAttributes,
  loginHref,
  type HostedFormContext,
} from '../form.js';
import { html } from '../html.js';
import { renderLayout } from '../layout.js';
import { continueTo } from './continue-to.js';

export interface PasswordPageInput extends HostedFormContext {
  /** The email address from the identify step, shown read-only and posted again. */
  readonly email: string;
  readonly clientName?: string;
  /** An inline error, for example HOSTED_MESSAGES.invalidCredentials. */
  readonly error?: string;
}

/**
 * The password step: the email (read-only, `autocomplete="username"` so that password managers fill the
 * right entry) and the password. Posts `email` and `password` to /login/password. "Use a different
 * account" goes back to the identify step of the same request.
 */
export function renderPasswordPage(input: PasswordPageInput): string {
  const body = html`${continueTo(input.clientName)}
    <form method="post" action="${input.authBase}/login/password">
      ${hiddenFormFields(input)} ${formError(input.error)}
      <div class="field">
        <label for="email">Email</label>
        <input
          id="email"
          name="${HOSTED_FIELDS.email}"
          type="email"
          autocomplete="username"
          readonly
          value="${input.email}"
        />
      </div>
      <div class="field">
        <label for="password">Password</label>
        <input
          id="password"
          name="${HOSTED_FIELDS.password}"
          type="password"
          autocomplete="current-password"
          required
          autofocus${invalidAttributes(input.error)}
        />
      </div>
      <button class="button button-primary" type="submit">Sign in</button>
    </form>
    <p class="alt"><a href="${loginHref(input.authBase, input.requestId)}">Use a different account</a></p>`;
  return renderLayout({ authBase: input.authBase, title: 'Sign in', heading: 'Enter your password', body });
}
