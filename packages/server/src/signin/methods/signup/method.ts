import type { EmailOtpChallenges } from '../email-otp/email-otp-challenges.js';
import type { SignupService } from '../../signup.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';
import { pendingChallengeStep } from '../shared/sent-challenge.js';
import { EmailSignupSteps } from './email-signup-steps.js';
import { SignupSteps, type SignupFormValues } from './signup-steps.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    /** Signup with email and password (the typed values come back with an error, never the password). */
    signup: { readonly kind: 'signup'; readonly request: StepRequest; readonly values: SignupFormValues };
  }
  interface StepErrors {
    display_name_required: true;
    display_name_invalid: true;
    organization_name_invalid: true;
    password_too_short: true;
    password_too_long: true;
    email_taken: true;
  }
}

export const SIGNUP: SignInMethodKey<SignupSteps> = signInMethodKey('signup');
export const EMAIL_SIGNUP: SignInMethodKey<EmailSignupSteps> = signInMethodKey('email-signup');

/** Signup with email and password. */
export function signupMethod(signup: Pick<SignupService, 'signUp'>): SignInMethodRegistration {
  return ({ steps, deps }) => ({
    key: SIGNUP,
    actions: new SignupSteps({ steps, requests: deps.requests, signup, clock: deps.clock }),
  });
}

/** Signup with an emailed code (the email method's codes). */
export function emailSignupMethod(services: {
  readonly challenges: Pick<EmailOtpChallenges, 'start' | 'find' | 'check'>;
  readonly signup: Pick<SignupService, 'signUpPasswordless'>;
}): SignInMethodRegistration {
  return ({ steps, deps }) => ({
    key: EMAIL_SIGNUP,
    actions: new EmailSignupSteps({ steps, requests: deps.requests, clock: deps.clock, ...services }),
    pendingStep: pendingChallengeStep(new Set(['email_otp_signup'])),
  });
}
