import { AMR_PASSWORD } from '../../direct-sign-in.js';
import type { PasswordAuthentication, PasswordAuthenticator } from '../../password-authenticator.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import {
  refusedRetry,
  type AuthorizeActionOutcome,
  type AuthorizeStep,
  type BrowserContext,
} from '../../flow/authorize-outcomes.js';
import { signInMethodKey, type SignInMethodKey } from '../../flow/sign-in-method.js';
import type { SignInMethodRegistration } from '../../flow/method-context.js';

declare module '../../flow/authorize-outcomes.js' {
  interface AuthorizeStepKinds {
    password: { readonly kind: 'password'; readonly request: StepRequest; readonly email: string };
  }
  interface StepErrors {
    password_required: true;
    /** A wrong password and an unknown email are the same answer. */
    invalid_credentials: true;
  }
}

/**
 * POST /login/password: checks the password of the identified email. A failure re-renders the step
 * with one message whether or not the account exists, a check refused by the limits on guessing with
 * `too_many_attempts` and the wait; success starts an issuer session (replacing the browser's previous
 * one) and continues with the sign-in engine.
 */
export class PasswordSteps {
  readonly #steps: AuthRequestSteps;
  readonly #passwords: Pick<PasswordAuthenticator, 'authenticate'>;

  constructor(steps: AuthRequestSteps, passwords: Pick<PasswordAuthenticator, 'authenticate'>) {
    this.#steps = steps;
    this.#passwords = passwords;
  }

  async password(
    requestId: string | undefined,
    browser: BrowserContext,
    password: string | undefined,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#steps.load(requestId, browser);
    if (request.status !== 'pending' || request.email === null)
      return { kind: 'next', requestId: request.id };
    // A request bound to an invitation signs in the invited address, whatever was identified since.
    const step: AuthorizeStep =
      request.invitationId === null
        ? { kind: 'password', request: await this.#steps.stepRequest(request), email: request.email }
        : await this.#steps.pendingStep({ ...request, challenge: null });
    const email = step.kind === 'invitation' ? step.invitation.summary.email : request.email;
    if (password === undefined || password === '') {
      return { kind: 'retry', step, error: 'password_required' };
    }
    let result: PasswordAuthentication;
    try {
      result = await this.#passwords.authenticate(email, password, {
        operation: 'authorize',
        ipAddress: browser.ipAddress,
        clientId: request.clientId,
      });
    } catch (error) {
      return refusedRetry(error, step);
    }
    if (!result.ok) {
      await this.#steps.recordFailure(request, browser, 'password');
      return { kind: 'retry', step, error: 'invalid_credentials' };
    }
    return this.#steps.completeAuthentication(request, browser, {
      userId: result.user.id,
      amr: [AMR_PASSWORD],
      method: 'password',
    });
  }
}

export const PASSWORD: SignInMethodKey<PasswordSteps> = signInMethodKey('password');

/** The password of the identified email: holds every pending request that has one (register it last). */
export function passwordMethod(
  passwords: Pick<PasswordAuthenticator, 'authenticate'>,
): SignInMethodRegistration {
  return ({ steps }) => ({
    key: PASSWORD,
    actions: new PasswordSteps(steps, passwords),
    pendingStep: (request, stepRequest) =>
      Promise.resolve(
        request.email === null ? undefined : { kind: 'password', request: stepRequest, email: request.email },
      ),
  });
}
