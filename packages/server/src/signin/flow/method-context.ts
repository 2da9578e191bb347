import type { AuthRequestSteps } from './auth-request-steps.js';
import type { AuthorizeCompletion } from './authorize-completion.js';
import type { AuthorizeFlowDeps } from './deps.js';
import type { SignInMethod } from './sign-in-method.js';

/** What a method is built on: the engine's request access and completion, and its dependencies. */
export interface SignInMethodContext {
  readonly steps: AuthRequestSteps;
  readonly completion: AuthorizeCompletion;
  readonly deps: AuthorizeFlowDeps;
  /** How long a new authorization request lives (a method that starts requests, like the device's). */
  readonly requestLifetimeMs: number;
}

/** A method as `app/` registers it: built once the engine exists. */
export type SignInMethodRegistration = (context: SignInMethodContext) => SignInMethod;
