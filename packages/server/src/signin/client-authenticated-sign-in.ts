import type { SvcClientAuthenticationInput, SvcLoginResult } from '@svc/contract';
import type { UserRepository } from '../directory/repository.js';
import type { DirectCallContext, DirectSignIn } from './direct-sign-in.js';
import { signInVouchedUser } from './vouched-user-sign-in.js';

export interface ClientAuthenticatedSignInDeps {
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient' | 'completeSignIn'>;
  readonly users: Pick<UserRepository, 'findById'>;
}

/**
 * CompleteClientAuthenticationAsync (docs/reference/sign-in.md "Client-authenticated and privileged sign-ins"): the sign-in of a
 * user whom a first-party client authenticated itself, as CompleteExternalLoginAsync is that of a user a
 * provider authenticated. The client passes the direct helpers' gate first (first-party only; a
 * confidential client authenticates), then the user must exist (404) and be active
 * (403 `account_inactive`); the sign-in goes through the engine as after a password: organization
 * selection unless `organizationId`, the MFA policy, application access, then tokens, with the client's
 * `authenticationMethod` as the session's amr, audited `oauth.direct_login.succeeded` with method
 * `client` as every direct sign-in is (./direct-login-audit.ts). Unlike CreateSessionTokensForUserAsync
 * nothing is skipped.
 */
export class ClientAuthenticatedSignIn {
  readonly #deps: ClientAuthenticatedSignInDeps;

  constructor(deps: ClientAuthenticatedSignInDeps) {
    this.#deps = deps;
  }

  async complete(input: SvcClientAuthenticationInput, context: DirectCallContext): Promise<SvcLoginResult> {
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, context);
    return signInVouchedUser(
      this.#deps,
      {
        userId: input.userId,
        client,
        organizationId: input.organizationId,
        amr: input.authenticationMethod,
        method: 'client',
      },
      context,
    );
  }
}
