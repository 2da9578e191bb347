import type {
  InvitationAcceptance,
  InvitationFormError,
  SignedOutInvitationPage,
} from './invitation-acceptance.js';
import type { InvitationBinding } from './invitation-binding.js';
import { AMR_INVITATION } from './invitation-signup.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import type {
  AuthorizeActionOutcome,
  AuthorizeStep,
  BrowserContext,
  StepError,
  StepRequest,
} from '../../flow/authorize-outcomes.js';
import { invitationOperation, invitationUnusableError } from '../../flow/errors.js';
import { signInMethodKey, type SignInMethodKey, type SignInMethods } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    /**
     * A request bound to an invitation: the invited address signs in (its password, or an emailed code
     * when it has none) or signs up (`invitation.kind`).
     */
    invitation: {
      readonly kind: 'invitation';
      readonly request: StepRequest;
      readonly invitation: SignedOutInvitationPage;
    };
  }
}

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
 * The own steps of a request bound to an invitation (the engine signs in and accepts for the invited
 * address on every other step, through the binding): its page, and POST /login/invitation/signup, which
 * creates the invited address's passwordless account (email verified, the invitation accepted), then
 * signs it in. `acceptance`: the invitation pages of the invitation's own link.
 */
export class InvitationSteps {
  readonly #binding: Pick<InvitationBinding, 'page' | 'signup'>;
  readonly #steps: AuthRequestSteps;
  readonly acceptance: InvitationAcceptance;

  constructor(
    binding: Pick<InvitationBinding, 'page' | 'signup'>,
    acceptance: InvitationAcceptance,
    steps: AuthRequestSteps,
  ) {
    this.#binding = binding;
    this.acceptance = acceptance;
    this.#steps = steps;
  }

  /** The invited address's sign-in or signup page. */
  async step(stepRequest: StepRequest, invitationId: string): Promise<AuthorizeStep> {
    const page = await invitationOperation(() => this.#binding.page(invitationId));
    return { kind: 'invitation', request: stepRequest, invitation: page };
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
    // Without the session: a bound request never uses the browser's issuer session.
    const outcome = await invitationOperation(() =>
      this.#binding.signup(invitationId, displayName, { ipAddress: browser.ipAddress }),
    );
    if (outcome.kind === 'retry') {
      const step = await this.step(await this.#steps.stepRequest(request), invitationId);
      return { kind: 'retry', step, error: INVITATION_STEP_ERRORS[outcome.error] };
    }
    return this.#steps.completeAuthentication(request, browser, {
      userId: outcome.userId,
      amr: [AMR_INVITATION],
      method: 'invitation_signup',
    });
  }
}

export const INVITATION: SignInMethodKey<InvitationSteps> = signInMethodKey('invitation');

/**
 * Invitations: holds the pending requests bound to an invitation (after the methods that wait for a
 * code, before the password). The engine binds requests through the same binding (its `invitations`).
 */
export function invitationMethod(
  binding: Pick<InvitationBinding, 'page' | 'signup'>,
  acceptance: InvitationAcceptance,
): SignInMethodRegistration {
  return ({ steps }) => {
    const actions = new InvitationSteps(binding, acceptance, steps);
    return {
      key: INVITATION,
      actions,
      pendingStep: (request, stepRequest) =>
        request.invitationId === null
          ? Promise.resolve(undefined)
          : actions.step(stepRequest, request.invitationId),
    };
  };
}

/** The invitation steps; without invitations every invitation is unusable (the engine's one answer). */
export function invitationSteps(methods: SignInMethods): InvitationSteps {
  const steps = methods.get(INVITATION);
  if (steps === undefined) throw invitationUnusableError();
  return steps;
}
