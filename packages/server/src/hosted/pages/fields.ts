import { retryAfterPhrase } from '../../kernel/errors.js';
import { HOSTED_FIELDS, invalidAttributes } from '../form.js';
import { html, type SafeHtml } from '../../http/pages/html.js';

/**
 * The address field of a form that asks for one (identify, email sign-in, forgot password): focused,
 * prefilled with `value`, tied to the inline error. `autocomplete="username"` lets password managers pair
 * it with the password step; an address gets no capitals and no spell checking.
 */
export function emailField(value: string | undefined, error: string | undefined): SafeHtml {
  return html`<div class="field">
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
      value="${value ?? ''}"
      ${invalidAttributes(error)}
    />
  </div>`;
}

/**
 * An address the flow already knows (the password step, an invitation), read-only and posted again.
 * `autocomplete="username"` makes password managers fill the entry of this address.
 */
export function knownEmailField(email: string): SafeHtml {
  return html`<div class="field">
    <label for="email">Email</label>
    <input
      id="email"
      name="${HOSTED_FIELDS.email}"
      type="email"
      autocomplete="username"
      readonly
      value="${email}"
    />
  </div>`;
}

/** The password of an existing account (sign-in, accepting an invitation), tied to the inline error. */
export function currentPasswordField(error: string | undefined): SafeHtml {
  return html`<div class="field">
    <label for="password">Password</label>
    <input
      id="password"
      name="${HOSTED_FIELDS.password}"
      type="password"
      autocomplete="current-password"
      required
      autofocus${invalidAttributes(error)}
    />
  </div>`;
}

/**
 * A way on below a form ("Use a different account", "Forgot password?"), with words before the link
 * when given ("New here?").
 */
export function altLink(href: string, text: string, lead?: string): SafeHtml {
  return html`<p class="alt">${lead !== undefined && html`${lead} `}<a href="${href}">${text}</a></p>`;
}

/**
 * "You can ask for a new code in 25 seconds." while the resend delay (or a send limit) runs; nothing
 * once a new one may be sent.
 */
export function resendNotice(what: 'code' | 'link', resendInMs: number | undefined): SafeHtml {
  return html`${
    resendInMs !== undefined &&
    resendInMs > 0 &&
    html`<p class="muted">You can ask for a new ${what} ${retryAfterPhrase(resendInMs)}.</p>`
  }`;
}
