import type { CodeChallengeKind } from '../../signin/flow/repository.js';
import {
  formError,
  hiddenFormFields,
  HOSTED_FIELDS,
  invalidAttributes,
  loginHref,
  requestPageHref,
  type HostedFormContext,
} from '../form.js';
import { html, type SafeHtml } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { continueTo } from './continue-to.js';
import { altLink, resendNotice } from './fields.js';

export interface EnterCodePageInput extends HostedFormContext {
  /** Which code the request waits for: it decides where the form posts and where a new code comes from. */
  readonly challenge: CodeChallengeKind;
  /** The masked address or number the code went to (if it went anywhere). */
  readonly target: string;
  readonly clientName?: string;
  /** An inline error, for example HOSTED_MESSAGES.codeInvalid. */
  readonly error?: string;
  /** How long until a new code may be asked for (ms); said only while in the future. */
  readonly resendInMs?: number;
}

/** Per channel: where the code is posted, where a new one is asked for, and the words of the page. */
const CHANNELS: Readonly<
  Record<
    CodeChallengeKind,
    { verify: string; start: string; heading: string; sent: (target: string) => SafeHtml }
  >
> = Object.freeze({
  email_otp: {
    verify: '/login/email-otp/verify',
    start: '/login/email-otp',
    heading: 'Check your email',
    sent: (target: string) =>
      html`If <strong>${target}</strong> has an account, we emailed it a 6-digit code.`,
  },
  email_otp_signup: {
    verify: '/signup/email-otp/verify',
    start: '/signup',
    heading: 'Check your email',
    sent: (target: string) =>
      html`If <strong>${target}</strong> can be used for a new account, we emailed it a 6-digit code.`,
  },
  phone_otp: {
    verify: '/login/phone-otp/verify',
    start: '/login/phone-otp',
    heading: 'Check your phone',
    sent: (target: string) =>
      html`If <strong>${target}</strong> has an account, we texted it a 6-digit code.`,
  },
  phone_otp_signup: {
    verify: '/signup/phone-otp/verify',
    start: '/signup/phone-otp',
    heading: 'Check your phone',
    sent: (target: string) =>
      html`If <strong>${target}</strong> can be used for a new account, we texted it a 6-digit code.`,
  },
});

/**
 * The enter-code step of every code channel (email sign-in, phone sign-in, phone signup). The page
 * says where the code went in words that hold whether or not an account exists (the start never tells),
 * posts `code` to the channel's verify route, and offers a new code (the channel's start page, saying
 * when one may be sent while the resend delay runs) or another account. `autocomplete="one-time-code"` lets phones offer a texted code.
 */
export function renderEnterCodePage(input: EnterCodePageInput): string {
  const channel = CHANNELS[input.challenge];
  const body = html`${continueTo(input.clientName)}
    <p>${channel.sent(input.target)} It expires in 10 minutes.</p>
    <form method="post" action="${input.authBase}${channel.verify}">
      ${hiddenFormFields(input)} ${formError(input.error)}
      <div class="field">
        <label for="code">Code</label>
        <input
          id="code"
          name="${HOSTED_FIELDS.code}"
          type="text"
          inputmode="numeric"
          autocomplete="one-time-code"
          autocapitalize="none"
          spellcheck="false"
          maxlength="16"
          required
          autofocus${invalidAttributes(input.error)}
        />
      </div>
      <button class="button button-primary" type="submit">Continue</button>
    </form>
    ${resendNotice('code', input.resendInMs)}
    ${altLink(requestPageHref(input.authBase, channel.start, input.requestId), 'Send a new code')}
    ${altLink(loginHref(input.authBase, input.requestId), 'Use a different account')}`;
  return renderLayout({ authBase: input.authBase, title: 'Enter your code', heading: channel.heading, body });
}
