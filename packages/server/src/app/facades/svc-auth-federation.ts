import {
  svcRefreshTokenProofSchema,
  svcRemoveLinkedIdentityRequestSchema,
  type SvcLinkedIdentity,
  type SvcOidcProviderSummary,
  type SvcRefreshTokenProof,
  type SvcRemoveLinkedIdentityRequest,
} from '@svc/contract';
import type { OidcAccountLinking } from '../../federation/oidc/account-linking.js';
import type { OidcConnections } from '../../federation/oidc/enabled-connections.js';
import { providerSummaries } from '../../federation/oidc/oidc-sign-in.js';
import { toSvcLinkedIdentity } from '../../federation/oidc/views.js';
import { SvcNotFoundError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { DirectSignIn } from '../../signin/direct-sign-in.js';
import { SvcAuthCapabilityOperations, type SvcAuthExtensions } from './svc-auth-capabilities.js';

export interface SvcAuthFederationDeps {
  readonly extensions?: SvcAuthExtensions;
  /** The first-party session behind the account routes. */
  readonly direct: Pick<DirectSignIn, 'requireFirstPartySession'>;
  /** The provider identities linked to accounts. */
  readonly linkedIdentities: Pick<OidcAccountLinking, 'list' | 'unlink'>;
  /** The enabled OpenID / social provider connections. */
  readonly oidcConnections: Pick<OidcConnections, 'listEnabled'>;
}

/**
 * The operations of SvcAuthService about OpenID / social providers: the enabled providers and the
 * identities linked to an account. A base class of the facade, like the capability operations under it,
 * so that SvcAuthService stays one file of its own sign-in and session operations; requests are validated
 * with the contract schemas, as everywhere in the facades.
 */
export abstract class SvcAuthFederationOperations extends SvcAuthCapabilityOperations {
  readonly #federation: SvcAuthFederationDeps;

  protected constructor(deps: SvcAuthFederationDeps) {
    super(deps.extensions);
    this.#federation = deps;
  }

  /** ListEnabledProvidersAsync (`GET /oidc/providers`): the enabled providers, oldest first. */
  async listEnabledProvidersAsync(): Promise<{ data: SvcOidcProviderSummary[] }> {
    return { data: providerSummaries(await this.#federation.oidcConnections.listEnabled()) };
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
