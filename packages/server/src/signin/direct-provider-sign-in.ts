import type {
  OidcAuthenticationMethod,
  SvcLoginResult,
  SvcOidcCompleteInput,
  SvcOidcCompleteResult,
  SvcOidcStartInput,
  SvcOidcStartResult,
} from '@svc/contract';
import type { ClientRecord, UserRepository } from '../directory/repository.js';
import type { OidcAppAuthorization } from '../federation/oidc/app-authorization.js';
import { AMR_FEDERATED } from '../federation/oidc/oidc-sign-in.js';
import type { DirectCallContext, DirectSignIn } from './direct-sign-in.js';
import type { OrganizationPolicy } from './organization-policy.js';
import { signInVouchedUser } from './vouched-user-sign-in.js';

export interface DirectProviderSignInDeps {
  readonly direct: Pick<DirectSignIn, 'requireFirstPartyClient' | 'completeSignIn'>;
  readonly authorization: Pick<OidcAppAuthorization, 'start' | 'complete'>;
  readonly organizations: Pick<OrganizationPolicy, 'options'>;
  readonly users: Pick<UserRepository, 'findById'>;
}

/** CompleteExternalLoginAsync's input, validated (docs/reference/federation.md "First-party apps"). */
export interface ExternalLoginInput {
  readonly userId: string;
  readonly clientId: string | null;
  readonly authenticationMethod: OidcAuthenticationMethod;
  readonly organizationId: string | null;
}

/**
 * The provider sign-in of first-party apps (docs/reference/sign-in.md "Direct JSON helpers": the browser-side authorization
 * URL creation and code exchange of the social flow and CompleteExternalLoginAsync are first-party
 * only). Every operation passes the direct helpers' client gate first, before any provider is asked or
 * any account read: a client that is not first-party is a 400 `invalid_client`, a confidential client
 * without its secret a 401, each audited `oauth.direct_login.rejected`.
 *
 * - `startAuthorization` / `completeAuthorization`: StartAuthorizationAsync and CompleteAuthorizationAsync
 *   over OidcAppAuthorization. The completion creates no session and no tokens.
 * - `completeExternalLogin`: the sign-in of the completed user through the engine, as after a password
 *   (organization selection, MFA, then tokens), with amr `fed`.
 */
export class DirectProviderSignIn {
  readonly #deps: DirectProviderSignInDeps;

  constructor(deps: DirectProviderSignInDeps) {
    this.#deps = deps;
  }

  async startAuthorization(
    input: SvcOidcStartInput,
    context: DirectCallContext,
  ): Promise<SvcOidcStartResult> {
    await this.#deps.direct.requireFirstPartyClient(input.clientId, context);
    const { authorizationUrl, connection } = await this.#deps.authorization.start({
      connectionId: input.connectionId,
      callbackUri: input.callbackUri,
      loginHint: input.email,
      state: input.state,
      nonce: input.nonce,
      codeChallenge: input.codeChallenge,
    });
    return {
      authorizationUrl,
      connectionId: connection.id,
      providerType: connection.providerType,
      displayName: connection.displayName,
    };
  }

  async completeAuthorization(
    input: SvcOidcCompleteInput,
    context: DirectCallContext,
  ): Promise<SvcOidcCompleteResult> {
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, context);
    const { connection, user, userCreated } = await this.#deps.authorization.complete(
      {
        connectionId: input.connectionId,
        callbackUri: input.callbackUri,
        code: input.code,
        codeVerifier: input.codeVerifier,
        nonce: input.nonce,
        userPayloadJson: input.userPayloadJson,
        iss: input.iss,
      },
      { clientId: client.clientId, ...(context.ipAddress == null ? {} : { ipAddress: context.ipAddress }) },
    );
    const organizations = await this.#deps.organizations.options(user.id);
    return {
      userId: user.id,
      email: user.email,
      emailVerified: user.emailVerified,
      displayName: user.displayName,
      organizationId: organizations.length === 1 ? (organizations[0]?.id ?? null) : null,
      authenticationMethod: connection.profile.authenticationMethod,
      organizationCount: organizations.length,
      userCreated,
      connectionId: connection.id,
    };
  }

  /**
   * Signs the user in at the client: 404 for an unknown user, 403 `account_inactive` for a deactivated
   * one (deactivated after the completion, or named by the host); audited `oauth.direct_login.succeeded`
   * with the provider as the method, like a direct password sign-in.
   */
  async completeExternalLogin(
    input: ExternalLoginInput,
    context: DirectCallContext,
  ): Promise<SvcLoginResult> {
    const client = await this.#deps.direct.requireFirstPartyClient(input.clientId, context);
    return this.signInFederatedUser(
      {
        userId: input.userId,
        client,
        method: input.authenticationMethod,
        organizationId: input.organizationId,
      },
      context,
    );
  }

  /**
   * The sign-in of a user an identity provider vouched for, at a client already through the gate (OIDC
   * providers here, the SAML request-token exchange in ./direct-sso-sign-in.ts), as ./vouched-user-sign-in.ts
   * does it, with amr `fed`; audited `oauth.direct_login.succeeded` with `method`.
   */
  async signInFederatedUser(
    input: {
      readonly userId: string;
      readonly client: ClientRecord;
      readonly method: string;
      readonly organizationId: string | null;
      readonly authTime?: number;
    },
    context: DirectCallContext,
  ): Promise<SvcLoginResult> {
    return signInVouchedUser(this.#deps, { ...input, amr: AMR_FEDERATED }, context);
  }
}
