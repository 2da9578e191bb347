import type { PhoneOtpChallenges } from './phone-otp-challenges.js';
import type { SignupService } from '../../signup.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';
import { pendingChallengeStep } from '../shared/sent-challenge.js';
import { PhoneOtpSteps, type PhoneSignupFormValues } from './phone-otp-steps.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    /** Phone sign-in: the number to text a code to (what was typed comes back with an error). */
    phone_number: {
      readonly kind: 'phone_number';
      readonly request: StepRequest;
      readonly phoneNumber: string | null;
    };
    /** Signup with a phone number: name, number and organization; the texted code follows. */
    phone_signup: {
      readonly kind: 'phone_signup';
      readonly request: StepRequest;
      readonly values: PhoneSignupFormValues;
    };
  }
  interface StepErrors {
    phone_required: true;
    phone_invalid: true;
    phone_country_refused: true;
    sms_unavailable: true;
  }
}

export const PHONE_OTP: SignInMethodKey<PhoneOtpSteps> = signInMethodKey('phone-otp');

/** Phone sign-in and phone signup by texted codes (registered only when SMS is configured). */
export function phoneOtpMethod(services: {
  readonly challenges: Pick<PhoneOtpChallenges, 'normalize' | 'start' | 'find' | 'check'>;
  readonly signup: Pick<SignupService, 'signUpPasswordless'>;
}): SignInMethodRegistration {
  return ({ steps, deps }) => ({
    key: PHONE_OTP,
    actions: new PhoneOtpSteps({ steps, requests: deps.requests, clock: deps.clock, ...services }),
    pendingStep: pendingChallengeStep(new Set(['phone_otp', 'phone_otp_signup'])),
  });
}
