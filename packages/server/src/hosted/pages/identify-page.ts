import {
  formError,
  hiddenFormFields,
  HOSTED_FIELDS,
  invalidAttributes,
  type HostedFormContext,
} from '../form.js';
import { html } from '../html.js';
import { renderLayout } from '../layout.js';
import { continueTo } from './continue-to.js';

export interface IdentifyPageInput extends HostedFormContext {
  /** The client the user is signing in to, shown as "to continue to …". */
  readonly clientName?: string;
  /** Prefill: the login_hint of the request, or what the user typed before an error. */
  readonly email?: string;
  /** An inline error, for example HOSTED_MESSAGES.emailInvalid. */
  readonly error?: string;
}

/**
 * The first sign-in step (the `svc` view of DECISIONS.md): the email address, for home-realm discovery.
 * Posts `email` to /login/identify. `autocomplete="username"` lets password managers pair it with the
 * password step.
 */
export function renderIdentifyPage(input: IdentifyPageInput): string {
  const body = html`${continueTo(input.clientName)}
    <form method="post" action="${input.authBase}/login/identify">
      ${hiddenFormFields(input)} ${formError(input.error)}
      <div class="field">
        <label for="email">Email</label>
        <input
          id="email"
          name="${HOSTED_FIELDS.email}"
          type="email"
          inputmode="email"
          autocomplete="username"
          autocapitalize="none"
          spellcheck="false"
          maxlength="320"
          required
          autofocus
          value="${input.email ?? ''}"
          ${invalidAttributes(input.error)}
        />
      </div>
      <button class="button button-primary" type="submit">Continue</button>
    </form>`;
  return renderLayout({ authBase: input.authBase, title: 'Sign in', body });
}
