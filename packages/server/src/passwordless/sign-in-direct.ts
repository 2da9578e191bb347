import type { DirectCallContext } from '../signin/direct-sign-in.js';

/** Where a call comes from; the same shape SvcAuthService's operations take. */
export interface PasswordlessCallContext {
  readonly route?: string;
  readonly ipAddress?: string | null;
  readonly userAgent?: string | null;
}

/** The DirectCallContext of an operation: the route when a route calls, else the operation name. */
export function callContext(
  operation: string,
  context: PasswordlessCallContext | undefined,
): DirectCallContext {
  return {
    operation: context?.route ?? operation,
    ipAddress: context?.ipAddress ?? null,
    userAgent: context?.userAgent ?? null,
  };
}
