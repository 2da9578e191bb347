import {
  svcRefreshTokenProofSchema,
  svcRemoveLinkedIdentityRequestSchema,
  svcRevokeAccountGrantRequestSchema,
  type SvcConsentGrant,
  type SvcConsentGrantRevokeResult,
  type SvcLinkedIdentity,
  type SvcRefreshTokenProof,
  type SvcRemoveLinkedIdentityRequest,
  type SvcRevokeAccountGrantRequest,
} from '@svc/contract';
import type { OidcAccountLinking } from '../../federation/oidc/account-linking.js';
import { toSvcLinkedIdentity } from '../../federation/oidc/views.js';
import { SvcNotFoundError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { ConsentGrants } from '../../signin/consent-grants.js';
import type { DirectSignIn } from '../../signin/direct-sign-in.js';

export interface SvcAuthAccountDeps {
  /** The first-party session behind the account routes. */
  readonly direct: Pick<DirectSignIn, 'requireFirstPartySession'>;
  /** The consent grants of the session's user. */
  readonly consents: Pick<ConsentGrants, 'list' | 'revoke'>;
  /** The provider identities linked to accounts. */
  readonly linkedIdentities: Pick<OidcAccountLinking, 'list' | 'unlink'>;
}

/**
 * The account operations of SvcAuthService: a signed-in user's own consent grants
 * (docs/reference/sign-in.md "Application access and consent") and linked provider identities
 * (docs/reference/federation.md "Account linking"). Each proves the user with the refresh token of an
 * active first-party session (401 `invalid_token` otherwise).
 */
export class SvcAuthAccount {
  readonly #deps: SvcAuthAccountDeps;

  constructor(deps: SvcAuthAccountDeps) {
    this.#deps = deps;
  }

  /** POST /account/grants: the active consent grants of the session's user (401 without an active first-party session). */
  async listAccountGrantsAsync(request: SvcRefreshTokenProof): Promise<{ data: SvcConsentGrant[] }> {
    const input = validate(svcRefreshTokenProofSchema, request, 'account grants request');
    const session = await this.#deps.direct.requireFirstPartySession(input.refreshToken);
    return { data: await this.#deps.consents.list(session.userId) };
  }

  /** POST /account/grants/revoke: 401 without an active first-party session; 400 for an unknown or revoked grant. */
  async revokeAccountGrantAsync(request: SvcRevokeAccountGrantRequest): Promise<SvcConsentGrantRevokeResult> {
    const input = validate(svcRevokeAccountGrantRequestSchema, request, 'grant revocation request');
    const session = await this.#deps.direct.requireFirstPartySession(input.refreshToken);
    return this.#deps.consents.revoke(session.userId, input.grantId);
  }

  /** POST /account/identities: the provider identities linked to the session's account. */
  async listLinkedIdentitiesAsync(request: SvcRefreshTokenProof): Promise<{ data: SvcLinkedIdentity[] }> {
    const input = validate(svcRefreshTokenProofSchema, request, 'linked identities request');
    const session = await this.#deps.direct.requireFirstPartySession(input.refreshToken);
    return { data: (await this.#deps.linkedIdentities.list(session.userId)).map(toSvcLinkedIdentity) };
  }

  /**
   * POST /account/identities/remove: 404 for an identity the account has not linked; 409 when it is the
   * account's last way to sign in.
   */
  async removeLinkedIdentityAsync(request: SvcRemoveLinkedIdentityRequest): Promise<void> {
    const input = validate(svcRemoveLinkedIdentityRequestSchema, request, 'identity removal request');
    const session = await this.#deps.direct.requireFirstPartySession(input.refreshToken);
    if (!(await this.#deps.linkedIdentities.unlink(session.userId, input.identityId))) {
      throw new SvcNotFoundError('This account has no linked identity with this id.');
    }
  }
}
