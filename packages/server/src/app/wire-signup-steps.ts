import type { Clock } from '../kernel/clock.js';
import type { PhoneOtpService } from '../passwordless/phone-otp-service.js';
import type { AuthorizeFlow } from '../signin/flow/authorize-flow.js';
import { PhoneOtpSteps } from '../signin/methods/phone-otp/phone-otp-steps.js';
import { SignupSteps } from '../signin/methods/signup/signup-steps.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import type { Db } from '../storage/database.js';
import { authRequestRepository } from '../storage/repositories/auth-requests.js';
import type { AuthEngine } from './wire-auth.js';

export interface WireSignupStepsContext {
  readonly db: Db;
  readonly flow: AuthorizeFlow;
  readonly engine: Pick<AuthEngine, 'signup'>;
  /** The phone OTP capability; its hosted pages exist only when SMS is configured. */
  readonly phoneOtp: PhoneOtpService | undefined;
  readonly clock: Clock;
}

/**
 * The hosted signup and phone steps over the flow's request access (`flow.steps`) and the engine's
 * SignupService: always the email-and-password signup; phone sign-in and phone signup only when the SMS
 * provider is configured, so that no page offers what cannot work.
 */
export function wireSignupSteps(ctx: WireSignupStepsContext): Pick<HostedSignInDeps, 'signup' | 'phoneOtp'> {
  const requests = authRequestRepository(ctx.db);
  const signup = new SignupSteps({
    steps: ctx.flow.steps,
    requests,
    signup: ctx.engine.signup,
    clock: ctx.clock,
  });
  const challenges = ctx.phoneOtp?.challenges;
  if (challenges?.enabled !== true) return { signup };
  return {
    signup,
    phoneOtp: new PhoneOtpSteps({
      steps: ctx.flow.steps,
      requests,
      challenges,
      signup: ctx.engine.signup,
      clock: ctx.clock,
    }),
  };
}
