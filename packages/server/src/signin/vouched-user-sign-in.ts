import type { SvcLoginResult } from '@svc/contract';
import type { ClientRecord, UserRepository } from '../directory/repository.js';
import { accountInactiveError } from '../federation/oidc/app-authorization.js';
import { SvcNotFoundError } from '../kernel/errors.js';
import type { DirectCallContext, DirectSignIn } from './direct-sign-in.js';

export interface VouchedUserSignInDeps {
  readonly direct: Pick<DirectSignIn, 'completeSignIn'>;
  readonly users: Pick<UserRepository, 'findById'>;
}

/**
 * The direct sign-in of a user named by id whom someone else authenticated (an identity provider, or the
 * first-party client itself), at a client already through the gate: 404 for an unknown user, 403
 * `account_inactive` for a deactivated one; then the engine as after a password, with `amr` as the
 * session's and `method` as the audited one. `authTime` defaults to now.
 */
export async function signInVouchedUser(
  deps: VouchedUserSignInDeps,
  input: {
    readonly userId: string;
    readonly client: ClientRecord;
    readonly organizationId: string | null;
    readonly amr: string;
    readonly method: string;
    readonly authTime?: number;
  },
  context: DirectCallContext,
): Promise<SvcLoginResult> {
  const user = await deps.users.findById(input.userId);
  if (user === undefined) throw new SvcNotFoundError(`User '${input.userId}' was not found.`);
  if (!user.active) throw accountInactiveError();
  return deps.direct.completeSignIn(
    {
      userId: user.id,
      client: input.client,
      requestedOrganizationId: input.organizationId,
      amr: input.amr,
      method: input.method,
      ...(input.authTime === undefined ? {} : { authTime: input.authTime }),
    },
    context,
  );
}
