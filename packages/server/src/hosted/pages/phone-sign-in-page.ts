import {
  formError,
  hiddenFormFields,
  HOSTED_FIELDS,
  invalidAttributes,
  loginHref,
  requestPageHref,
  type HostedFormContext,
} from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { continueTo } from './continue-to.js';
import { altLink } from './fields.js';

/** GET /login/phone-otp of a request: where "Text me a sign-in code" and "Send a new code" lead. */
export function phoneSignInHref(authBase: string, requestId: string): string {
  return requestPageHref(authBase, '/login/phone-otp', requestId);
}

export interface PhoneSignInPageInput extends HostedFormContext {
  readonly clientName?: string;
  /** What the user typed before an error, or the number a code was already sent to. */
  readonly phoneNumber?: string;
  /** An inline error, for example HOSTED_MESSAGES.phoneInvalid. */
  readonly error?: string;
}

/**
 * Phone sign-in: the number to text a code to. Posts `phone_number` to /login/phone-otp/start; the
 * request's enter-code step follows. `autocomplete="tel"` lets the browser offer the user's number; a
 * national number is read in the configured default region.
 */
export function renderPhoneSignInPage(input: PhoneSignInPageInput): string {
  const body = html`${continueTo(input.clientName)}
    <form method="post" action="${input.authBase}/login/phone-otp/start">
      ${hiddenFormFields(input)} ${formError(input.error)}
      <div class="field">
        <label for="phone_number">Phone number</label>
        <input
          id="phone_number"
          name="${HOSTED_FIELDS.phoneNumber}"
          type="tel"
          inputmode="tel"
          autocomplete="tel"
          maxlength="32"
          required
          autofocus
          value="${input.phoneNumber ?? ''}"
          ${invalidAttributes(input.error)}
        />
      </div>
      <button class="button button-primary" type="submit">Text me a code</button>
    </form>
    ${altLink(loginHref(input.authBase, input.requestId), 'Sign in another way')}`;
  return renderLayout({
    authBase: input.authBase,
    title: 'Sign in',
    heading: 'Sign in with your phone',
    body,
  });
}
