import type { SignInProvider } from '../../signin/flow/authorize-outcomes.js';
import { providerButtons } from './provider-buttons.js';
import { formError, hiddenFormFields, type HostedFormContext } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import { continueTo } from './continue-to.js';
import { emailSignInHref } from './email-sign-in-page.js';
import { altLink, emailField } from './fields.js';
import { phoneSignInHref } from './phone-sign-in-page.js';
import { signupHref } from './signup-page.js';

export interface IdentifyPageInput extends HostedFormContext {
  /** The client the user is signing in to, shown as "to continue to …". */
  readonly clientName?: string;
  /** Prefill: the login_hint of the request, or what the user typed before an error. */
  readonly email?: string;
  /** An inline error, for example HOSTED_MESSAGES.emailInvalid. */
  readonly error?: string;
  /** Offer "Email me a sign-in code" (email codes and links are wired). */
  readonly emailSignIn?: boolean;
  /** Offer "Text me a sign-in code" (only when SMS is configured). */
  readonly phoneSignIn?: boolean;
  /** Offer "Create an account" (hosted signup). */
  readonly signup?: boolean;
  /** The enabled external providers: a "Continue with …" button each. */
  readonly providers?: readonly SignInProvider[];
}

/**
 * The first sign-in step (the `svc` view of docs/reference/sign-in.md "Hosted pages"): the email address, for home-realm discovery.
 * Posts `email` to /login/identify. `autocomplete="username"` lets password managers pair it with the
 * password step.
 */
export function renderIdentifyPage(input: IdentifyPageInput): string {
  const { authBase, requestId } = input;
  const body = html`${continueTo(input.clientName)}
    <form method="post" action="${authBase}/login/identify">
      ${hiddenFormFields(input)} ${formError(input.error)} ${emailField(input.email, input.error)}
      <button class="button button-primary" type="submit">Continue</button>
    </form>
    ${providerButtons(authBase, requestId, input.providers ?? [])}
    ${input.emailSignIn === true && altLink(emailSignInHref(authBase, requestId), 'Email me a sign-in code')}
    ${input.phoneSignIn === true && altLink(phoneSignInHref(authBase, requestId), 'Text me a sign-in code')}
    ${input.signup === true && altLink(signupHref(authBase, requestId), 'Create an account', 'New here?')}`;
  return renderLayout({ authBase, title: 'Sign in', body });
}
