import type { EmailOtpChallenges } from './email-otp-challenges.js';
import type { MagicLinks } from '../magic-link/magic-links.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';
import { pendingChallengeStep } from '../shared/sent-challenge.js';
import { EmailOtpSteps } from './email-otp-steps.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    /** Email sign-in: the address to send a code or a link to (prefilled, or what was typed before an error). */
    email_sign_in: {
      readonly kind: 'email_sign_in';
      readonly request: StepRequest;
      readonly email: string | null;
    };
  }
}

export const EMAIL_OTP: SignInMethodKey<EmailOtpSteps> = signInMethodKey('email-otp');

/** Email sign-in: a code, or a sign-in link (opened by the magic-link method), sent to an address. */
export function emailOtpMethod(services: {
  readonly challenges: Pick<EmailOtpChallenges, 'start' | 'find' | 'check'>;
  readonly magicLinks: Pick<MagicLinks, 'issue'>;
}): SignInMethodRegistration {
  return ({ steps, deps }) => ({
    key: EMAIL_OTP,
    actions: new EmailOtpSteps({ steps, requests: deps.requests, clock: deps.clock, ...services }),
    pendingStep: pendingChallengeStep(new Set(['email_otp', 'magic_link'])),
  });
}
