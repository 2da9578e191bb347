import {
  svcExternalLoginRequestSchema,
  svcHomeRealmDiscoveryRequestSchema,
  svcOidcCompleteRequestSchema,
  svcOidcStartRequestSchema,
  svcRefreshTokenProofSchema,
  svcRemoveLinkedIdentityRequestSchema,
  type SvcExternalLoginRequest,
  type SvcHomeRealmDiscoveryRequest,
  type SvcHomeRealmDiscoveryResult,
  type SvcLinkedIdentity,
  type SvcLoginResult,
  type SvcOidcCompleteRequest,
  type SvcOidcCompleteResult,
  type SvcOidcStartRequest,
  type SvcOidcStartResult,
  type SvcOidcProviderSummary,
  type SvcRefreshTokenProof,
  type SvcRemoveLinkedIdentityRequest,
} from '@svc/contract';
import type { OidcAccountLinking } from '../../federation/oidc/account-linking.js';
import type { OidcConnections } from '../../federation/oidc/enabled-connections.js';
import { providerSummaries } from '../../federation/oidc/oidc-sign-in.js';
import { toSvcLinkedIdentity } from '../../federation/oidc/views.js';
import type { HomeRealmDiscovery } from '../../federation/saml/home-realm.js';
import { SvcInvalidOperationError, SvcNotFoundError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { DirectProviderSignIn } from '../../signin/direct-provider-sign-in.js';
import { directCallOf, type DirectSignIn } from '../../signin/direct-sign-in.js';
import { SvcAuthCapabilityOperations, type SvcAuthExtensions } from './svc-auth-capabilities.js';
import type { SvcAuthCallContext } from './svc-auth-service.js';

export interface SvcAuthFederationDeps {
  readonly extensions?: SvcAuthExtensions;
  /** The first-party session behind the account routes. */
  readonly direct: Pick<DirectSignIn, 'requireFirstPartySession'>;
  /** The provider identities linked to accounts. */
  readonly linkedIdentities: Pick<OidcAccountLinking, 'list' | 'unlink'>;
  /** The enabled OpenID / social provider connections. */
  readonly oidcConnections: Pick<OidcConnections, 'listEnabled'>;
  /**
   * The provider sign-in of first-party apps (createSvc() wires it; without it the three operations
   * answer SvcInvalidOperationError).
   */
  readonly providerSignIn?: DirectProviderSignIn;
  /** Home-realm discovery over the SSO connections (without it every address is in the password realm). */
  readonly homeRealms?: Pick<HomeRealmDiscovery, 'discover'>;
}

/**
 * The operations of SvcAuthService about OpenID / social providers: the enabled providers, the sign-in
 * of first-party apps through them, and the identities linked to an account. A base class of the facade,
 * like the capability operations under it, so that SvcAuthService stays one file of its own sign-in and
 * session operations; requests are validated with the contract schemas, as everywhere in the facades.
 */
export abstract class SvcAuthFederationOperations extends SvcAuthCapabilityOperations {
  readonly #federation: SvcAuthFederationDeps;

  protected constructor(deps: SvcAuthFederationDeps) {
    super(deps.extensions);
    this.#federation = deps;
  }

  #providerSignIn(): DirectProviderSignIn {
    const providerSignIn = this.#federation.providerSignIn;
    if (providerSignIn === undefined) {
      throw new SvcInvalidOperationError(
        'This operation is not available: the provider sign-in is not wired into this service.',
      );
    }
    return providerSignIn;
  }

  /**
   * DiscoverAsync: where the user of an address signs in (SPEC.md "Home realm discovery result"), as the
   * hosted identify step and headless `/identify` decide it: `sso` with the enabled connection of an
   * active organization that holds an active claim on the address's domain or names it as a connection's
   * primary domain; `password` otherwise. An invalid address is a 400.
   */
  async discoverAsync(request: SvcHomeRealmDiscoveryRequest): Promise<SvcHomeRealmDiscoveryResult> {
    const input = validate(svcHomeRealmDiscoveryRequestSchema, request, 'home realm discovery request');
    return (await this.#federation.homeRealms?.discover(input.email)) ?? { mode: 'password' };
  }

  /** ListEnabledProvidersAsync (`GET /oidc/providers`): the enabled providers, oldest first. */
  async listEnabledProvidersAsync(): Promise<{ data: SvcOidcProviderSummary[] }> {
    return { data: providerSummaries(await this.#federation.oidcConnections.listEnabled()) };
  }

  /**
   * StartAuthorizationAsync (`POST /oidc/authorization-url`): the provider's authorization URL for a
   * first-party app that keeps its own state, nonce and PKCE verifier (S256). `callbackUri` must be one of
   * the connection's allowed callback URIs (400 `invalid_redirect_uri`); an unknown or disabled connection
   * is 400 `invalid_connection`. Nothing is stored. First-party clients only.
   */
  async startAuthorizationAsync(
    request: SvcOidcStartRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcOidcStartResult> {
    const input = validate(svcOidcStartRequestSchema, request, 'provider authorization request');
    return this.#providerSignIn().startAuthorization(
      input,
      directCallOf('startAuthorizationAsync', context, input.clientSecret),
    );
  }

  /**
   * CompleteAuthorizationAsync: redeems the code of the app's callback with its verifier, checks the ID
   * token's nonce, and links the identity to its account (created on a first sign-in). Creates no session
   * and no tokens; sign the user in with
   * {@link SvcAuthFederationOperations.completeExternalLoginAsync}. Refusals: the relying party's
   * codes (`provider_error` for a used code, `invalid_id_token`, `provider_unavailable` 502…),
   * `provider_email_unverified` (409), `account_inactive` (403). First-party clients only.
   */
  async completeAuthorizationAsync(
    request: SvcOidcCompleteRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcOidcCompleteResult> {
    const input = validate(svcOidcCompleteRequestSchema, request, 'provider completion request');
    return this.#providerSignIn().completeAuthorization(
      input,
      directCallOf('completeAuthorizationAsync', context, input.clientSecret),
    );
  }

  /**
   * CompleteExternalLoginAsync({userId, clientId, authenticationMethod, organizationId?, clientSecret?}):
   * signs in the user a provider sign-in completed, through the engine of password login (organization
   * selection, MFA, then tokens; amr `fed`). The host vouches for `userId` (take it from
   * CompleteAuthorizationAsync); never a route of its own. First-party clients only.
   */
  async completeExternalLoginAsync(
    request: SvcExternalLoginRequest,
    context?: SvcAuthCallContext,
  ): Promise<SvcLoginResult> {
    const input = validate(svcExternalLoginRequestSchema, request, 'external login request');
    return this.#providerSignIn().completeExternalLogin(
      input,
      directCallOf('completeExternalLoginAsync', context, input.clientSecret),
    );
  }

  /** POST /account/identities: the provider identities linked to the session's account. */
  async listLinkedIdentitiesAsync(request: SvcRefreshTokenProof): Promise<{ data: SvcLinkedIdentity[] }> {
    const input = validate(svcRefreshTokenProofSchema, request, 'linked identities request');
    const session = await this.#federation.direct.requireFirstPartySession(input.refreshToken);
    return { data: (await this.#federation.linkedIdentities.list(session.userId)).map(toSvcLinkedIdentity) };
  }

  /**
   * POST /account/identities/remove: 404 for an identity the account has not linked; 409 when it is the
   * account's last way to sign in.
   */
  async removeLinkedIdentityAsync(request: SvcRemoveLinkedIdentityRequest): Promise<void> {
    const input = validate(svcRemoveLinkedIdentityRequestSchema, request, 'identity removal request');
    const session = await this.#federation.direct.requireFirstPartySession(input.refreshToken);
    if (!(await this.#federation.linkedIdentities.unlink(session.userId, input.identityId))) {
      throw new SvcNotFoundError('This account has no linked identity with this id.');
    }
  }
}
