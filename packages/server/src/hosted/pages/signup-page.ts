import { HOSTED_FIELDS, loginHref, requestPageHref } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { altLink } from './fields.js';
import { errorAbout, signupField, signupForm, type SignupFormInput } from './signup-fields.js';

/** GET /signup of a request: where "Create an account" leads. */
export function signupHref(authBase: string, requestId: string): string {
  return requestPageHref(authBase, '/signup', requestId);
}

/** GET /signup/phone-otp of a request: signup with a phone number instead of an email and password. */
export function phoneSignupHref(authBase: string, requestId: string): string {
  return requestPageHref(authBase, '/signup/phone-otp', requestId);
}

export interface SignupPageInput extends SignupFormInput {
  /** What the user typed before an error. */
  readonly email?: string;
  /** Offer signup with a phone number (only when SMS is configured). */
  readonly phoneSignup?: boolean;
}

/**
 * Signup with an email and a password: name, email, a new password (8 characters or more, as the
 * contract's SvcSignupRequest) and an optional organization that the new account will own. Posts to
 * /signup/submit (POST /signup is the direct JSON helper). `autocomplete="new-password"` lets password
 * managers offer a generated password.
 */
export function renderSignupPage(input: SignupPageInput): string {
  const { authBase, requestId } = input;
  const fields = html`${signupField({
    name: HOSTED_FIELDS.email,
    label: 'Email',
    type: 'email',
    inputmode: 'email',
    autocomplete: 'username',
    maxlength: 320,
    required: true,
    value: input.email ?? '',
    error: errorAbout(input, HOSTED_FIELDS.email),
  })}
  ${signupField({
    name: HOSTED_FIELDS.password,
    label: 'Password',
    type: 'password',
    autocomplete: 'new-password',
    minlength: 8,
    maxlength: 1024,
    required: true,
    error: errorAbout(input, HOSTED_FIELDS.password),
  })}`;
  const body = html`${signupForm(input, { action: '/signup/submit', fields, submit: 'Create account' })}
  ${
    input.phoneSignup === true &&
    altLink(phoneSignupHref(authBase, requestId), 'Sign up with a phone number instead')
  }
  ${altLink(loginHref(authBase, requestId), 'Sign in', 'Already have an account?')}`;
  return renderLayout({ authBase, title: 'Create your account', body });
}
