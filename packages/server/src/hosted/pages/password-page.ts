import { formError, hiddenFormFields, loginHref, requestPageHref, type HostedFormContext } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { continueTo } from './continue-to.js';
import { emailSignInHref } from './email-sign-in-page.js';
import { altLink, currentPasswordField, knownEmailField } from './fields.js';

export interface PasswordPageInput extends HostedFormContext {
  /** The email address from the identify step, shown read-only and posted again. */
  readonly email: string;
  readonly clientName?: string;
  /** An inline error, for example HOSTED_MESSAGES.invalidCredentials. */
  readonly error?: string;
  /** Offer "Email me a code instead" (email codes and links are wired). */
  readonly emailSignIn?: boolean;
}

/**
 * The password step: the email (read-only, `autocomplete="username"` so that password managers fill the
 * right entry) and the password. Posts `email` and `password` to /login/password. "Use a different
 * account" goes back to the identify step of the same request.
 */
export function renderPasswordPage(input: PasswordPageInput): string {
  const { authBase, requestId } = input;
  const body = html`${continueTo(input.clientName)}
    <form method="post" action="${authBase}/login/password">
      ${hiddenFormFields(input)} ${formError(input.error)} ${knownEmailField(input.email)}
      ${currentPasswordField(input.error)}
      <button class="button button-primary" type="submit">Sign in</button>
    </form>
    ${altLink(requestPageHref(authBase, '/password/forgot', requestId), 'Forgot password?')}
    ${altLink(loginHref(authBase, requestId), 'Use a different account')}
    ${input.emailSignIn === true && altLink(emailSignInHref(authBase, requestId), 'Email me a code instead')}`;
  return renderLayout({ authBase, title: 'Sign in', heading: 'Enter your password', body });
}
