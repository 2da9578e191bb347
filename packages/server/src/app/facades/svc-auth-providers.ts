import {
  svcExternalLoginRequestSchema,
  svcHomeRealmDiscoveryRequestSchema,
  svcOidcCompleteRequestSchema,
  svcOidcStartRequestSchema,
  type SvcExternalLoginRequest,
  type SvcHomeRealmDiscoveryRequest,
  type SvcHomeRealmDiscoveryResult,
  type SvcLoginResult,
  type SvcOidcCompleteRequest,
  type SvcOidcCompleteResult,
  type SvcOidcProviderSummary,
  type SvcOidcStartRequest,
  type SvcOidcStartResult,
} from '@svc/contract';
import type { OidcConnections } from '../../federation/oidc/enabled-connections.js';
import { providerSummaries } from '../../federation/oidc/oidc-sign-in.js';
import type { HomeRealmDiscovery } from '../../federation/saml/home-realm.js';
import { SvcInvalidOperationError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { DirectProviderSignIn } from '../../signin/direct-provider-sign-in.js';
import { directCallOf } from '../../signin/direct-sign-in.js';
import type { SvcAuthCallContext } from './svc-auth-call-context.js';

export interface SvcAuthProvidersDeps {
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
 * The operations of SvcAuthService about where a user signs in and through which provider
 * (docs/reference/federation.md "Home-realm discovery", "Provider sign-in of first-party apps"): the
 * realm of an address, the enabled providers, and the sign-in of first-party apps through them.
 * Requests are validated with the contract schemas (400).
 */
export class SvcAuthProviders {
  readonly #deps: SvcAuthProvidersDeps;

  constructor(deps: SvcAuthProvidersDeps) {
    this.#deps = deps;
  }

  /**
   * DiscoverAsync: where the user of an address signs in, as the hosted identify step and headless
   * `/identify` decide it: `sso` with the enabled connection of an active organization that holds an
   * active claim on the address's domain or names it as a connection's primary domain; `password`
   * otherwise. An invalid address is a 400.
   */
  async discoverAsync(request: SvcHomeRealmDiscoveryRequest): Promise<SvcHomeRealmDiscoveryResult> {
    const input = validate(svcHomeRealmDiscoveryRequestSchema, request, 'home realm discovery request');
    return (await this.#deps.homeRealms?.discover(input.email)) ?? { mode: 'password' };
  }

  /** ListEnabledProvidersAsync (`GET /oidc/providers`): the enabled providers, oldest first. */
  async listEnabledProvidersAsync(): Promise<{ data: SvcOidcProviderSummary[] }> {
    return { data: providerSummaries(await this.#deps.oidcConnections.listEnabled()) };
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
   * and no tokens; sign the user in with {@link SvcAuthProviders.completeExternalLoginAsync}. Refusals:
   * the relying party's codes (`provider_error` for a used code, `invalid_id_token`,
   * `provider_unavailable` 502…), `provider_email_unverified` (409), `account_inactive` (403).
   * First-party clients only.
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

  #providerSignIn(): DirectProviderSignIn {
    const providerSignIn = this.#deps.providerSignIn;
    if (providerSignIn === undefined) {
      throw new SvcInvalidOperationError(
        'This operation is not available: the provider sign-in is not wired into this service.',
      );
    }
    return providerSignIn;
  }
}
