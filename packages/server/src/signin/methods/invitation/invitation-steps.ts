import type { InvitationFormError } from '../../../invitations/invitation-acceptance.js';
import { AMR_INVITATION } from '../../../invitations/invitation-signup.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type { AuthorizeActionOutcome, BrowserContext, StepError } from '../../flow/authorize-outcomes.js';
import type { AuthorizeFlowDeps } from '../../flow/deps.js';
import { invitationOperation, invitationUnusableError } from '../../flow/errors.js';

/** The step error of each invitation form error. */
export const INVITATION_STEP_ERRORS: Readonly<Record<InvitationFormError, StepError>> = Object.freeze({
  password_required: 'password_required',
  invalid_credentials: 'invalid_credentials',
  too_many_attempts: 'too_many_attempts',
  display_name_required: 'display_name_required',
  // Created meanwhile: the step now asks for the account's password, and says why.
  account_exists: 'email_taken',
  not_signed_in: 'invitation_other_account',
});

/**
 * The own action of a request bound to an invitation (./auth-request-steps.ts signs in and accepts for
 * the invited address on every other step): POST /login/invitation/signup creates the invited
 * address's passwordless account (email verified, the invitation accepted), then signs it in.
 */
export class InvitationSteps {
  readonly #deps: AuthorizeFlowDeps;
  readonly #steps: AuthRequestSteps;

  constructor(deps: AuthorizeFlowDeps, steps: AuthRequestSteps) {
    this.#deps = deps;
    this.#steps = steps;
  }

  /** Creates the invited account with `displayName` and signs it in; the step again (400) on a bad name. */
  async signup(
    requestId: string | undefined,
    browser: BrowserContext,
    displayName: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    const invitationId = request.invitationId;
    if (request.status !== 'pending' || invitationId === null) return { kind: 'next', requestId: request.id };
    const invitations = this.#deps.invitations;
    if (invitations === undefined) throw invitationUnusableError();
    // Without the session: a bound request never uses the browser's issuer session.
    const outcome = await invitationOperation(() =>
      invitations.signup(invitationId, displayName, { ipAddress: browser.ipAddress }),
    );
    if (outcome.kind === 'retry') {
      const step = await this.#steps.invitationStep(request);
      return { kind: 'retry', step, error: INVITATION_STEP_ERRORS[outcome.error] };
    }
    return this.#steps.completeAuthentication(request, browser, {
      userId: outcome.userId,
      amr: [AMR_INVITATION],
      method: 'invitation_signup',
    });
  }
}
