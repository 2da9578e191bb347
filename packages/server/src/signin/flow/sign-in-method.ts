import type {
  AuthorizeActionOutcome,
  AuthorizeStep,
  AuthorizeStepOutcome,
  BrowserContext,
  SignInProvider,
  StepRequest,
} from './authorize-outcomes.js';
import type { AuthRequestRecord, AuthRequestStatus } from './repository.js';

/**
 * Names a sign-in method and the type of its actions, so that a surface gets its actions typed from the
 * registry without the engine knowing the method (`methods.get(EMAIL_OTP)`).
 */
export interface SignInMethodKey<Actions> {
  readonly id: string;
  /** Never set: carries the actions' type. */
  readonly actions?: Actions;
}

export function signInMethodKey<Actions>(id: string): SignInMethodKey<Actions> {
  return Object.freeze({ id });
}

/**
 * One way of proving who the user is, or one step of the sign-in (password, a code by email or text,
 * a sign-in link, signup, an invitation, the second factor, organization selection, consent, a device's
 * approval). The engine moves a request between statuses; a method shows the page of the statuses it
 * owns, may hold a pending request (one that waits for its code, or is bound to its invitation), and
 * offers the actions its surfaces' routes call.
 *
 * A method adds its step kinds and step errors to `AuthorizeStepKinds` / `StepErrors`
 * (./authorize-outcomes.ts) by declaration merging, so the engine names none of them.
 */
export interface SignInMethod<Actions = unknown> {
  readonly key: SignInMethodKey<Actions>;
  /** What the surfaces call (for example `send`, `verify`). */
  readonly actions: Actions;
  /** The statuses whose page this method shows (at most one method per status). */
  readonly statuses?: readonly AuthRequestStatus[];
  /**
   * The page of a request in one of `statuses` (or a redirect to the client); null when showing it moved
   * the request on (the engine then shows the request's new step).
   */
  statusStep?(request: AuthRequestRecord, browser: BrowserContext): Promise<AuthorizeStepOutcome | null>;
  /**
   * The page of a pending request this method holds (it waits for this method's code or link, or is bound
   * to its invitation); undefined when the method does not hold it.
   */
  pendingStep?(request: AuthRequestRecord, stepRequest: StepRequest): Promise<AuthorizeStep | undefined>;
  /**
   * The external providers this method offers on every page (read on each page: a provider disabled a
   * moment ago is gone from the next one).
   */
  providers?(): Promise<readonly SignInProvider[]>;
  /**
   * Home-realm discovery: a request just identified its email; a method whose realm the address belongs
   * to (an SSO domain) answers where the browser goes instead of the password step. Undefined: not its.
   */
  claimIdentified?(
    request: AuthRequestRecord,
    browser: BrowserContext,
  ): Promise<AuthorizeActionOutcome | undefined>;
}

/**
 * The methods a deployment registered, in order: the first method that holds a pending request shows its
 * page, so methods that wait for a code come before the ones that only hold a request by its email.
 */
export class SignInMethods {
  readonly #methods: readonly SignInMethod[];
  readonly #byId = new Map<string, SignInMethod>();
  readonly #byStatus = new Map<AuthRequestStatus, SignInMethod>();

  constructor(methods: readonly SignInMethod[]) {
    this.#methods = methods;
    for (const method of methods) {
      if (this.#byId.has(method.key.id))
        throw new Error(`Sign-in method ${method.key.id} is registered twice.`);
      this.#byId.set(method.key.id, method);
      for (const status of method.statuses ?? []) {
        const owner = this.#byStatus.get(status);
        if (owner !== undefined) {
          throw new Error(`Status ${status} belongs to ${owner.key.id} and ${method.key.id}.`);
        }
        this.#byStatus.set(status, method);
      }
    }
  }

  /** The actions of a registered method; undefined when the deployment does not offer it. */
  get<Actions>(key: SignInMethodKey<Actions>): Actions | undefined {
    return this.#byId.get(key.id)?.actions as Actions | undefined;
  }

  /** The actions of a method every deployment registers (a missing one is a wiring mistake). */
  require<Actions>(key: SignInMethodKey<Actions>): Actions {
    const actions = this.get(key);
    if (actions === undefined) throw new Error(`Sign-in method ${key.id} is not registered.`);
    return actions;
  }

  has(key: SignInMethodKey<unknown>): boolean {
    return this.#byId.has(key.id);
  }

  /** The method that shows the page of requests in `status`. */
  forStatus(status: AuthRequestStatus): SignInMethod | undefined {
    return this.#byStatus.get(status);
  }

  /** The external providers of every method, in registration order. */
  async providers(): Promise<SignInProvider[]> {
    const offered: SignInProvider[] = [];
    for (const method of this.#methods) {
      if (method.providers !== undefined) offered.push(...(await method.providers()));
    }
    return offered;
  }

  /** The outcome of the first method that claims an identified request's realm; undefined: none does. */
  async claimIdentified(
    request: AuthRequestRecord,
    browser: BrowserContext,
  ): Promise<AuthorizeActionOutcome | undefined> {
    for (const method of this.#methods) {
      const outcome = await method.claimIdentified?.(request, browser);
      if (outcome !== undefined) return outcome;
    }
    return undefined;
  }

  /** The page of the first method holding the pending request; undefined when none does. */
  async pendingStep(
    request: AuthRequestRecord,
    stepRequest: StepRequest,
  ): Promise<AuthorizeStep | undefined> {
    for (const method of this.#methods) {
      const step = await method.pendingStep?.(request, stepRequest);
      if (step !== undefined) return step;
    }
    return undefined;
  }
}
