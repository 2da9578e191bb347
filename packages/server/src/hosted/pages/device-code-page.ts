import { formError, HOSTED_FIELDS, invalidAttributes } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

export interface DeviceCodePageInput {
  readonly authBase: string;
  /** From `issueAntiforgeryToken()` on the response that renders the page. */
  readonly antiforgeryToken: string;
  /** Prefill: the code of verification_uri_complete, or what the user typed before an error. */
  readonly userCode?: string;
  /** An inline error, for example HOSTED_MESSAGES.deviceCodeInvalid. */
  readonly error?: string;
}

/**
 * The device verification page (docs/reference/sign-in.md "Hosted pages" GET /device; RFC 8628 §3.3): the code the device shows, posted
 * as `user_code` to /device/verify. There is no authorization request yet, so the form carries only the
 * antiforgery token. The code is never submitted by itself, even when the device's link filled it in:
 * the user compares it with the device and continues (RFC 8628 §5.4). `autocapitalize` and no spell
 * checking suit a code of letters; case and dashes do not matter.
 */
export function renderDeviceCodePage(input: DeviceCodePageInput): string {
  const body = html`<p class="lead">Enter the code shown on your device.</p>
    <form method="post" action="${input.authBase}/device/verify">
      <input type="hidden" name="${HOSTED_FIELDS.antiforgery}" value="${input.antiforgeryToken}" />
      ${formError(input.error)}
      <div class="field">
        <label for="user-code">Code</label>
        <input
          id="user-code"
          name="${HOSTED_FIELDS.userCode}"
          type="text"
          autocomplete="off"
          autocapitalize="characters"
          spellcheck="false"
          maxlength="64"
          placeholder="XXXX-XXXX"
          required
          autofocus
          value="${input.userCode ?? ''}"
          ${invalidAttributes(input.error)}
        />
      </div>
      <button class="button button-primary" type="submit">Continue</button>
    </form>`;
  return renderLayout({ authBase: input.authBase, title: 'Connect a device', body });
}
