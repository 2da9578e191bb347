import { HOSTED_FIELDS, loginHref } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { altLink } from './fields.js';
import { errorAbout, signupField, signupForm, type SignupFormInput } from './signup-fields.js';
import { signupHref } from './signup-page.js';

export interface PhoneSignupPageInput extends SignupFormInput {
  /** What the user typed before an error, or the number of the pending signup a code was sent for. */
  readonly phoneNumber?: string;
}

/**
 * Signup with a phone number: name, number and an optional organization the new account will own.
 * Posts to /signup/phone-otp/start; the texted code is entered on the request's enter-code step, and
 * the account (without email or password) exists only once the code is right.
 */
export function renderPhoneSignupPage(input: PhoneSignupPageInput): string {
  const { authBase, requestId } = input;
  const fields = signupField({
    name: HOSTED_FIELDS.phoneNumber,
    label: 'Phone number',
    type: 'tel',
    inputmode: 'tel',
    autocomplete: 'tel',
    maxlength: 32,
    required: true,
    value: input.phoneNumber ?? '',
    error: errorAbout(input, HOSTED_FIELDS.phoneNumber),
  });
  const body = html`${signupForm(input, { action: '/signup/phone-otp/start', fields, submit: 'Text me a code' })}
  ${altLink(signupHref(authBase, requestId), 'Sign up with email instead')}
  ${altLink(loginHref(authBase, requestId), 'Sign in', 'Already have an account?')}`;
  return renderLayout({ authBase, title: 'Create your account', body });
}
