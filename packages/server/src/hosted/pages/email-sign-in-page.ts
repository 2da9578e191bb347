import { formError, hiddenFormFields, loginHref, requestPageHref, type HostedFormContext } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { continueTo } from './continue-to.js';
import { altLink, emailField } from './fields.js';

/** GET /login/email-otp of a request: where "Email me a sign-in code" and "Enter a different email" lead. */
export function emailSignInHref(authBase: string, requestId: string): string {
  return requestPageHref(authBase, '/login/email-otp', requestId);
}

export interface EmailSignInPageInput extends HostedFormContext {
  readonly clientName?: string;
  /** Prefill: the request's email or login_hint, or what the user typed before an error. */
  readonly email?: string;
  /** An inline error, for example HOSTED_MESSAGES.emailInvalid. */
  readonly error?: string;
}

/**
 * Email sign-in without a password: one address field and two submit buttons. "Email me a sign-in
 * code" posts to /login/email-otp/start (the enter-code step follows); "Email me a sign-in link" posts
 * the same form to /login/magic-link/start through its `formaction` (no JavaScript needed), and the
 * "check your email" step follows.
 */
export function renderEmailSignInPage(input: EmailSignInPageInput): string {
  const body = html`${continueTo(input.clientName)}
    <form method="post" action="${input.authBase}/login/email-otp/start">
      ${hiddenFormFields(input)} ${formError(input.error)} ${emailField(input.email, input.error)}
      <div class="stack">
        <button class="button button-primary" type="submit">Email me a sign-in code</button>
        <button
          class="button button-secondary"
          type="submit"
          formaction="${input.authBase}/login/magic-link/start"
        >
          Email me a sign-in link
        </button>
      </div>
    </form>
    ${altLink(loginHref(input.authBase, input.requestId), 'Sign in another way')}`;
  return renderLayout({ authBase: input.authBase, title: 'Sign in', heading: 'Sign in with email', body });
}
