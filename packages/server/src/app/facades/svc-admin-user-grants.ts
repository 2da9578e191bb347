import {
  svcUserGrantPathSchema,
  svcUserGrantsPathSchema,
  svcUserIdentityPathSchema,
  type SvcConsentGrant,
  type SvcConsentGrantRevokeResult,
  type SvcLinkedIdentity,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import type { UserService } from '../../directory/user-service.js';
import type { OidcAccountLinking } from '../../federation/oidc/account-linking.js';
import { toSvcLinkedIdentity } from '../../federation/oidc/views.js';
import { SvcNotFoundError } from '../../kernel/errors.js';
import { validate } from '../../kernel/validation.js';
import type { ConsentGrants } from '../../signin/consent-grants.js';

export interface SvcAdminUserGrantsDeps {
  /** Whether the user exists (an unknown user is a 404 before anything is listed). */
  readonly users: Pick<UserService, 'get'>;
  /** The users' consent grants, listed and revoked by operators (the sign-in engine records them). */
  readonly consents: Pick<ConsentGrants, 'list' | 'revoke'>;
  /** The provider identities linked to accounts. */
  readonly linkedIdentities: Pick<OidcAccountLinking, 'list' | 'unlink'>;
}

/**
 * What a user granted and linked, as operators see and remove it: the consent grants given to clients
 * (docs/reference/sign-in.md "Application access and consent") and the provider identities linked to
 * the account (docs/reference/federation.md "Account linking").
 */
export class SvcAdminUserGrants {
  readonly #deps: SvcAdminUserGrantsDeps;

  constructor(deps: SvcAdminUserGrantsDeps) {
    this.#deps = deps;
  }

  /**
   * The user's active consent grants, as `GET /users/{userId}/grants` answers them (`{ data }`, one
   * entry per client). An unknown user is a 404.
   */
  async listUserGrantsAsync(userId: string): Promise<{ data: SvcConsentGrant[] }> {
    return { data: await this.#deps.consents.list(await this.#existingUser(userId, 'user grants request')) };
  }

  /** `GET /users/{userId}/identities`: the provider identities linked to the account (404: no such user). */
  async listUserIdentitiesAsync(userId: string): Promise<{ data: SvcLinkedIdentity[] }> {
    const id = await this.#existingUser(userId, 'linked identities request');
    return { data: (await this.#deps.linkedIdentities.list(id)).map(toSvcLinkedIdentity) };
  }

  /**
   * `DELETE /users/{userId}/identities/{identityId}`: 404 for a link the user does not have; 409 when it
   * is the account's last way to sign in (set a password or an address first). Audited with the operator.
   */
  async removeUserIdentityAsync(userId: string, identityId: string, actor?: AdminActor): Promise<void> {
    const input = validate(svcUserIdentityPathSchema, { userId, identityId }, 'identity removal request');
    const removed = await this.#deps.linkedIdentities.unlink(input.userId, input.identityId, {
      ...(actor?.actorType === 'operator' ? { operator: { actorId: actor.actorId } } : {}),
      ...(actor?.ipAddress === undefined ? {} : { ipAddress: actor.ipAddress }),
    });
    if (!removed)
      throw new SvcNotFoundError(`User '${input.userId}' has no linked identity '${input.identityId}'.`);
  }

  /**
   * Revokes one of the user's consent grants (`POST /users/{userId}/grants/{grantId}/revoke`); the
   * client must ask for consent again. An unknown or already revoked grant is a 400, and so is a grant
   * of another user. Audited as `oauth.consent.revoked` with the operator as the actor.
   */
  async revokeUserGrantAsync(
    userId: string,
    grantId: string,
    actor?: AdminActor,
  ): Promise<SvcConsentGrantRevokeResult> {
    const input = validate(svcUserGrantPathSchema, { userId, grantId }, 'grant revocation request');
    return this.#deps.consents.revoke(input.userId, input.grantId, {
      actorType: actor?.actorType ?? 'system',
      ...(actor?.actorId === undefined ? {} : { actorId: actor.actorId }),
      ...(actor?.ipAddress === undefined ? {} : { ipAddress: actor.ipAddress }),
    });
  }

  /** The validated id of a user who exists; a 404 otherwise. `what` names the request in a 400. */
  async #existingUser(userId: string, what: string): Promise<string> {
    const input = validate(svcUserGrantsPathSchema, { userId }, what);
    if ((await this.#deps.users.get(input.userId)) === undefined) {
      throw new SvcNotFoundError(`User '${input.userId}' was not found.`);
    }
    return input.userId;
  }
}
