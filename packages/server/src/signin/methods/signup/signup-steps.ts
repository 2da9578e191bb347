import { emailSchema, svcSignupRequestSchema } from '@svc/contract';
import type { Clock } from '../../../kernel/clock.js';
import { SvcConflictError } from '../../../kernel/errors.js';
import { AMR_PASSWORD } from '../../direct-sign-in.js';
import type { SignupService } from '../../signup.js';
import type { AuthRequestSteps } from '../../flow/auth-request-steps.js';
import { emailStepError } from '../../flow/step-error-messages.js';
import {
  refusedRetry,
  type AuthorizeActionOutcome,
  type AuthorizeStep,
  type BrowserContext,
  type StepError,
} from '../../flow/authorize-outcomes.js';
import { restartSignIn } from '../../flow/restart-sign-in.js';
import type { AuthRequestStore } from '../../flow/repository.js';

/** What the signup form shows again after an error (never the password). */
export interface SignupFormValues {
  readonly displayName: string;
  readonly email: string;
  readonly organizationName: string;
}

export interface SignupStepsDeps {
  readonly steps: Pick<AuthRequestSteps, 'load' | 'stepRequest' | 'completeAuthentication'>;
  readonly requests: Pick<AuthRequestStore, 'transition'>;
  /** The engine's SignupService: the account exactly as SignUpAsync creates it. */
  readonly signup: Pick<SignupService, 'signUp'>;
  readonly clock: Clock;
}

/** The signup form as posted. */
export interface SignupForm {
  readonly displayName: string | undefined;
  readonly email: string | undefined;
  readonly password: string | undefined;
  readonly organizationName: string | undefined;
}

/** The signup form's values as shown again (trimmed; never the password). */
export function signupFormValues(form: Omit<SignupForm, 'password'>): SignupFormValues {
  return {
    displayName: form.displayName?.trim() ?? '',
    email: form.email?.trim() ?? '',
    organizationName: form.organizationName?.trim() ?? '',
  };
}

/** The inline error for the first field the contract schema refused (issues come in the form's order). */
function fieldError(field: unknown, values: SignupFormValues, password: string): StepError {
  switch (field) {
    case 'email':
      return values.email === '' ? 'email_required' : emailStepError(values.email);
    case 'password':
      return password.length > 1024 ? 'password_too_long' : 'password_too_short';
    case 'organizationName':
      return 'organization_name_invalid';
    default:
      return values.displayName === '' ? 'display_name_required' : 'display_name_invalid';
  }
}

/**
 * Hosted signup with an email and a password (GET/POST /signup/submit): the same account SignUpAsync creates
 * (SvcSignupRequest's rules from the contract schema; with an organization name, a new organization the
 * user owns), for any active client of the authorization request: no first-party gate here, consent
 * follows for a third-party client. Success signs in as a password sign-in does (amr `pwd`, method
 * `signup`), starting the request's sign-in over from whatever status it was in.
 *
 * A taken email is said so ("An account with this email already exists"): a signup form cannot be
 * useful otherwise, and it confirms no more than trying to sign up with that address does.
 */
export class SignupSteps {
  readonly #deps: SignupStepsDeps;

  constructor(deps: SignupStepsDeps) {
    this.#deps = deps;
  }

  /** GET /signup: the empty form, the email prefilled from the identify step or an email login_hint. */
  async signupStep(requestId: string | undefined, browser: BrowserContext): Promise<AuthorizeStep> {
    const request = await this.#deps.steps.load(requestId, browser);
    const hint = request.email ?? request.loginHint;
    const email = hint !== null && emailSchema.safeParse(hint).success ? hint : '';
    return {
      kind: 'signup',
      request: await this.#deps.steps.stepRequest(request),
      values: { displayName: '', email, organizationName: '' },
    };
  }

  /** POST /signup/submit: creates the account and signs it in, or the form again (400) with one inline error. */
  async signUp(
    requestId: string | undefined,
    browser: BrowserContext,
    form: SignupForm,
  ): Promise<AuthorizeActionOutcome> {
    const request = await this.#deps.steps.load(requestId, browser);
    const stepRequest = await this.#deps.steps.stepRequest(request);
    const values = signupFormValues(form);
    const password = form.password ?? '';
    const retry = (error: StepError): AuthorizeActionOutcome => ({
      kind: 'retry',
      step: { kind: 'signup', request: stepRequest, values },
      error,
    });
    const parsed = svcSignupRequestSchema.safeParse({ ...values, password });
    if (!parsed.success) {
      return retry(fieldError(parsed.error.issues[0]?.path[0], values, password));
    }
    let created;
    try {
      created = await this.#deps.signup.signUp(parsed.data, browser);
    } catch (error) {
      if (error instanceof SvcConflictError) return retry('email_taken');
      return refusedRetry(error, { kind: 'signup', request: stepRequest, values });
    }
    const pending =
      request.status === 'pending'
        ? request
        : await restartSignIn(this.#deps.requests, request, null, this.#deps.clock.now());
    return this.#deps.steps.completeAuthentication(pending, browser, {
      userId: created.user.id,
      amr: [AMR_PASSWORD],
      method: 'signup',
    });
  }
}
