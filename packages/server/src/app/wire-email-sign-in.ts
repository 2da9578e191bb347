import type { ClientRecord } from '../admin/repository.js';
import type { HostedSignInDeps } from '../hosted/sign-in-deps.js';
import type { Clock } from '../kernel/clock.js';
import type { AuthorizeFlow } from '../signin/flow/authorize-flow.js';
import { EmailOtpSteps } from '../signin/methods/email-otp/email-otp-steps.js';
import { EmailSignupSteps } from '../signin/methods/signup/email-signup-steps.js';
import { MagicLinkLanding } from '../signin/methods/magic-link/magic-link-landing.js';
import type { PasswordlessSignIn } from '../passwordless/passwordless-sign-in.js';
import type { SignupService } from '../signin/signup.js';
import type { Db } from '../storage/database.js';
import { authRequestRepository } from '../storage/repositories/auth-requests.js';

export interface WireEmailSignInContext {
  readonly db: Db;
  readonly flow: AuthorizeFlow;
  /** The email code and link capability; without it the hosted email pages are not mapped. */
  readonly passwordless: PasswordlessSignIn | undefined;
  /** Creates the account of a verified email signup. */
  readonly signup: Pick<SignupService, 'signUpPasswordless'>;
  findClient(clientId: string): Promise<ClientRecord | undefined>;
  readonly clock: Clock;
}

/**
 * The hosted email steps (codes and links at /login/email-otp…) and the emailed link's page
 * (/magic-link), over the primitives the direct operations use, for the HostedSignInDeps.
 */
export function wireEmailSignIn(
  ctx: WireEmailSignInContext,
): Pick<HostedSignInDeps, 'emailOtp' | 'emailSignup' | 'magicLinkLanding'> {
  if (ctx.passwordless === undefined) return {};
  const requests = authRequestRepository(ctx.db);
  const { challenges, magicLinks } = ctx.passwordless;
  return {
    emailOtp: new EmailOtpSteps({
      steps: ctx.flow.steps,
      requests,
      challenges,
      magicLinks,
      clock: ctx.clock,
    }),
    emailSignup: new EmailSignupSteps({
      steps: ctx.flow.steps,
      requests,
      challenges,
      signup: ctx.signup,
      clock: ctx.clock,
    }),
    magicLinkLanding: new MagicLinkLanding({
      steps: ctx.flow.steps,
      requests,
      magicLinks,
      findClient: ctx.findClient,
      clock: ctx.clock,
    }),
  };
}
