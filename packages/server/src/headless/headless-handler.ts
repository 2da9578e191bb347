import type { HeadlessAction, HeadlessActionBodies } from '@svc/contract';
import { SvcError } from '../kernel/errors.js';
import type { HeadlessAnswer, HeadlessBrowser, HeadlessSignIn } from './headless-sign-in.js';

/** A capability this deployment does not run (no SMS provider, no email): like an unknown route. */
class HeadlessUnavailableError extends SvcError {
  constructor(what: string) {
    super('not_available', `${what} is not available on this server.`, { status: 404, expose: true });
  }
}

/** Who calls, for the audit trail of the operations that record their route. */
export interface HeadlessCall {
  readonly route: string;
  readonly ipAddress: string;
}

/** What runs one headless action, its body validated by HEADLESS_ACTIONS' schema. */
export type HeadlessHandler<A extends HeadlessAction> = (
  signIn: HeadlessSignIn,
  body: HeadlessActionBodies[A],
  browser: HeadlessBrowser,
  call: HeadlessCall,
) => Promise<HeadlessAnswer>;

/** The capability, or 404 `not_available` when the deployment does not run it. */
export function need<T>(capability: T | undefined, what: string): T {
  if (capability === undefined) throw new HeadlessUnavailableError(what);
  return capability;
}

/** The handlers of some actions. */
export type HeadlessHandlers<A extends HeadlessAction> = { readonly [K in A]: HeadlessHandler<K> };
