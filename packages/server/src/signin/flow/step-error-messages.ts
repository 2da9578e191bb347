import { hasAsciiLocalPart } from '@svc/contract';
import { EMAIL_REFUSAL_MESSAGES } from '../../directory/email-key.js';
import { SEND_REFUSED_WORDS } from '../../ratelimit/refused-send.js';
import type { StepError } from './authorize-outcomes.js';

/**
 * The words of each step error, shared by the hosted pages and the headless API (whose UI may show its
 * own: the `error` code is the stable part). One message for a wrong password and an unknown email alike.
 */
export const STEP_ERROR_MESSAGES: Readonly<Record<StepError, string>> = Object.freeze({
  email_required: 'Enter your email address.',
  email_invalid: 'Enter an email address in the format name@example.com.',
  email_not_ascii: EMAIL_REFUSAL_MESSAGES.local_part_not_ascii,
  password_required: 'Enter your password.',
  invalid_credentials: 'Email or password is incorrect.',
  // A retry that carries its refusal shows the refusal's message instead, which says when to try again.
  too_many_attempts: 'Too many failed attempts. Try again later.',
  mfa_code_invalid: 'That code did not work. Check your authenticator app and try again.',
  organization_required: 'Choose an organization to continue.',
  phone_required: 'Enter your phone number.',
  phone_invalid: 'Enter a valid phone number, for example +1 201 555 0123.',
  phone_country_refused:
    'Text messages are not sent to numbers of this country. Use a number of another country, or sign in another way.',
  sms_unavailable: 'A text message cannot be sent or checked right now. Try again later, or use another way.',
  code_invalid: 'The code is not valid or has expired. Check it, or send a new code.',
  display_name_required: 'Enter your name.',
  display_name_invalid: 'Enter a name of at most 200 characters, without special control characters.',
  organization_name_invalid: 'Enter an organization name of at most 200 characters, or leave it empty.',
  password_too_short: 'Choose a password of at least 8 characters.',
  password_too_long: 'Choose a password of at most 1024 characters.',
  // Signup must say this much to be usable; it confirms only what signing up with the address would.
  email_taken: 'An account with this email already exists. Sign in instead.',
  invitation_other_account:
    'This invitation is for another email address. Sign in with the invited address to accept it.',
  provider_unavailable:
    'That sign-in provider is not available right now. Try again in a few minutes, or sign in another way.',
  provider_cancelled: 'The sign-in with the provider was cancelled. Try again, or sign in another way.',
  provider_failed: 'The sign-in with the provider could not be completed. Try again, or sign in another way.',
  // Says only what signing up with the address would: an account with it exists.
  provider_email_unverified:
    'An account with this email address already exists, and the provider did not confirm the address ' +
    'is yours. Sign in another way.',
  provider_domain_not_claimed:
    "This organization's sign-in provider signs in only email addresses of the domains the organization " +
    "has verified. Ask your organization's administrator to verify the domain of your email address.",
  // The adapters add when to ask again (refusedSendMessage).
  resend_too_soon: SEND_REFUSED_WORDS,
});

/** The error of a typed address that the contract's emailSchema refused: is it not ASCII before the @? */
export function emailStepError(typed: string): 'email_invalid' | 'email_not_ascii' {
  return hasAsciiLocalPart(typed) ? 'email_invalid' : 'email_not_ascii';
}
