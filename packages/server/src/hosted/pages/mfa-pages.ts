import {
  currentStepHref,
  formError,
  hiddenFormFields,
  HOSTED_FIELDS,
  invalidAttributes,
  loginHref,
  type HostedFormContext,
} from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { continueTo } from './continue-to.js';

export interface MfaVerifyPageInput extends HostedFormContext {
  readonly clientName?: string;
  /** The user may type a recovery code instead. */
  readonly recoveryCodeOffered: boolean;
  readonly error?: string;
}

/** The code field of both MFA forms: digits from an app (or a recovery code), filled by password managers. */
function codeField(label: string, error: string | undefined, hint: string) {
  return html`<div class="field">
    <label for="code">${label}</label>
    <input
      id="code"
      name="${HOSTED_FIELDS.code}"
      type="text"
      inputmode="${hint}"
      autocomplete="one-time-code"
      autocapitalize="characters"
      spellcheck="false"
      maxlength="64"
      required
      autofocus${invalidAttributes(error)}
    />
  </div>`;
}

/** The second factor: a code of the authenticator app (or a recovery code); posts to /mfa/verify. */
export function renderMfaVerifyPage(input: MfaVerifyPageInput): string {
  const body = html`${continueTo(input.clientName)}
    <form method="post" action="${input.authBase}/mfa/verify">
      ${hiddenFormFields(input)} ${formError(input.error)}
      <p class="muted">
        Enter the 6-digit code from your authenticator
        app.${
          input.recoveryCodeOffered &&
          html` If you cannot use the app, enter one of your recovery codes instead.`
        }
      </p>
      ${codeField('Code', input.error, input.recoveryCodeOffered ? 'text' : 'numeric')}
      <button class="button button-primary" type="submit">Verify</button>
    </form>
    <p class="alt"><a href="${loginHref(input.authBase, input.requestId)}">Use a different account</a></p>`;
  return renderLayout({ authBase: input.authBase, title: 'Two-step verification', body });
}

export interface MfaEnrollPageInput extends HostedFormContext {
  readonly clientName?: string;
  /** Base32, for typing into an app that cannot scan. */
  readonly secret: string;
  /** The provisioning URI as a PNG data URL (the CSP allows `data:` images). */
  readonly qrCodeDataUrl: string;
  readonly error?: string;
}

/**
 * Forced enrollment: the QR code and the secret of a new authenticator, then its first code; posts to
 * /mfa/totp/enroll/verify. The secret is grouped in fours to make typing it easier.
 */
export function renderMfaEnrollPage(input: MfaEnrollPageInput): string {
  const grouped = input.secret.replace(/(.{4})(?=.)/g, '$1 ');
  const body = html`${continueTo(input.clientName)}
    <p class="muted">
      Your organization requires two-step verification. Scan this QR code with an authenticator app, then
      enter the 6-digit code it shows.
    </p>
    <p class="qr">
      <img src="${input.qrCodeDataUrl}" alt="QR code for your authenticator app" width="200" height="200" />
    </p>
    <p class="muted">Cannot scan it? Enter this key in the app: <code class="secret">${grouped}</code></p>
    <form method="post" action="${input.authBase}/mfa/totp/enroll/verify">
      ${hiddenFormFields(input)} ${formError(input.error)}
      ${codeField('Code from the app', input.error, 'numeric')}
      <button class="button button-primary" type="submit">Turn on two-step verification</button>
    </form>
    <p class="alt"><a href="${loginHref(input.authBase, input.requestId)}">Use a different account</a></p>`;
  return renderLayout({ authBase: input.authBase, title: 'Set up two-step verification', body });
}

export interface RecoveryCodesPageInput {
  readonly authBase: string;
  readonly requestId: string;
  readonly codes: readonly string[];
  /** The client's redirect, or null for the request's current step. */
  readonly continueTo: string | null;
}

/** The recovery codes, shown once after enrollment, and a link onward (no form: nothing left to post). */
export function renderRecoveryCodesPage(input: RecoveryCodesPageInput): string {
  const href = input.continueTo ?? currentStepHref(input.authBase, input.requestId);
  const body = html`<p class="lead">
      Two-step verification is on. Keep these recovery codes somewhere safe: each one signs you in once if you
      lose your authenticator app. They are shown only now.
    </p>
    <ul class="codes">
      ${input.codes.map((code) => html`<li><code>${code}</code></li>`)}
    </ul>
    <p><a class="button button-primary" href="${href}">Continue</a></p>`;
  return renderLayout({ authBase: input.authBase, title: 'Save your recovery codes', body });
}
