import {
  svcClientAuthenticationRequestSchema,
  svcPasswordLoginRequestSchema,
  svcSelectOrganizationRequestSchema,
  svcSignupRequestSchema,
  type SvcClientAuthenticationRequest,
  type SvcLoginResult,
  type SvcPasswordLoginRequest,
  type SvcSelectOrganizationRequest,
  type SvcSignupRequest,
  type SvcTokenResponse,
} from '@svc/contract';
import { SvcInvalidOperationError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { ClientAuthenticatedSignIn } from '../../signin/client-authenticated-sign-in.js';
import { toLoginResult } from '../../signin/direct-login-result.js';
import { directCallOf, type DirectSignIn } from '../../signin/direct-sign-in.js';
import type { SvcAuthCallContext } from './svc-auth-call-context.js';

export interface SvcAuthSignInDeps {
  /** The direct helpers' first-party gate and flows. */
  readonly direct: Pick<DirectSignIn, 'signUp' | 'loginWithPassword' | 'selectOrganization'>;
  /** The sign-in of a user the first-party client authenticated itself. */
  readonly clientAuthentication: Pick<ClientAuthenticatedSignIn, 'complete'>;
}

/**
 * The sign-in operations of SvcAuthService for first-party clients (docs/reference/sign-in.md "Direct JSON helpers"): signup, password login, a sign-in the client authenticated itself, and the organization
 * selection that may follow. Requests are validated with the contract schemas (400).
 */
export class SvcAuthSignIn {
  readonly #deps: SvcAuthSignInDeps;

  constructor(deps: SvcAuthSignInDeps) {
    this.#deps = deps;
  }

  /** SignUpAsync: creates the user (and organization, owned by the user) and signs in. First-party clients only. */
  async signUpAsync(request: SvcSignupRequest, context?: SvcAuthCallContext): Promise<SvcLoginResult> {
    const input = validate(svcSignupRequestSchema, request, 'signup request');
    return toLoginResult(
      await this.#deps.direct.signUp(input, directCallOf('signUpAsync', context, input.clientSecret)),
    );
  }

  /** LoginWithPasswordAsync: complete with tokens, or organization_selection. First-party clients only. */
  async loginWithPasswordAsync(
    request: SvcPasswordLoginRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcPasswordLoginRequestSchema, request, 'password login request');
    return toLoginResult(
      await this.#deps.direct.loginWithPassword(
        input,
        directCallOf('loginWithPasswordAsync', context, input.clientSecret),
      ),
    );
  }

  /**
   * CompleteClientAuthenticationAsync({userId, clientId, authenticationMethod, organizationId?,
   * clientSecret?}): signs in a user whom the first-party client authenticated itself, through the
   * engine of password login (organization selection, MFA, application access, then tokens; amr the
   * client's `authenticationMethod`). The client vouches for `userId`; never a route. First-party clients
   * only: 400 `invalid_client` otherwise, 401 for a confidential client without its `clientSecret`;
   * 404 for an unknown user, 403 `account_inactive` for a deactivated one.
   */
  async completeClientAuthenticationAsync(
    request: SvcClientAuthenticationRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcClientAuthenticationRequestSchema, request, 'client authentication request');
    return this.#deps.clientAuthentication.complete(
      input,
      directCallOf('completeClientAuthenticationAsync', context, input.clientSecret),
    );
  }

  /** SelectOrganizationForLoginAsync: consumes the pending token; the result keeps any MFA state. */
  async selectOrganizationForLoginAsync(
    request: SvcSelectOrganizationRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcSelectOrganizationRequestSchema, request, 'organization selection request');
    return toLoginResult(
      await this.#deps.direct.selectOrganization(
        input,
        directCallOf('selectOrganizationForLoginAsync', context, input.clientSecret),
      ),
    );
  }

  /**
   * SelectOrganizationAsync, the token-only wrapper: throws SvcInvalidOperationError('The selected
   * organization requires MFA.') when the selection leads to an MFA state.
   */
  async selectOrganizationAsync(
    request: SvcSelectOrganizationRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcTokenResponse> {
    const result = await this.selectOrganizationForLoginAsync(request, {
      ...context,
      route: context?.route ?? 'selectOrganizationAsync',
    });
    if (result.requiresMfa || result.tokens === null) {
      throw new SvcInvalidOperationError('The selected organization requires MFA.');
    }
    return result.tokens;
  }
}
