import {
  createOidcConnectionBodySchema,
  oidcConnectionPathSchema,
  pageQuerySchema,
  updateOidcConnectionBodySchema,
  type CreateOidcConnectionBody,
  type Page,
  type SvcOidcConnection,
  type SvcOidcConnectionDeleteResult,
  type SvcPageRequest,
  type UpdateOidcConnectionBody,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import type { OidcConnectionAdmin } from '../../federation/oidc/connection-admin.js';
import { toSvcOidcConnection } from '../../federation/oidc/views.js';
import { validate } from '../../kernel/validation.js';

/**
 * The OpenID / social provider connection operations of SvcAdminService (docs/reference/federation.md
 * "OIDC and social connections"). Ids and bodies are validated
 * with the contract schemas of the HTTP routes (400); an unknown connection is a 404.
 */
export class SvcAdminOidcConnections {
  readonly #connections: OidcConnectionAdmin;

  /** `connections` validates, seals and audits the connections. */
  constructor(connections: OidcConnectionAdmin) {
    this.#connections = connections;
  }

  /**
   * CreateOidcConnectionAsync: the connection input (plus `organizationId` and `enabled`, default
   * true). The provider type's rules are checked (400 naming each field), an Apple key must be an EC
   * P-256 PKCS#8 key, `{connectionId}` in the callback URIs becomes the new id, and the secrets are
   * sealed with the master key. The answer never carries a secret, only `clientSecretSet` and
   * `applePrivateKeySet`.
   */
  async createOidcConnectionAsync(
    request: CreateOidcConnectionBody,
    actor?: AdminActor,
  ): Promise<SvcOidcConnection> {
    const input = validate(createOidcConnectionBodySchema, request, 'OIDC connection');
    return toSvcOidcConnection(await this.#connections.create(input, actor));
  }

  /** One OIDC connection; a 404 for an unknown id. */
  async getOidcConnectionAsync(connectionId: string): Promise<SvcOidcConnection> {
    return toSvcOidcConnection(await this.#connections.get(this.#id(connectionId)));
  }

  /** OIDC connections, newest first. */
  async listOidcConnectionsAsync(request: SvcPageRequest = {}): Promise<Page<SvcOidcConnection>> {
    const page = await this.#connections.list(validate(pageQuerySchema, request, 'page request'));
    return { data: page.data.map(toSvcOidcConnection), nextCursor: page.nextCursor };
  }

  /**
   * Replaces an OIDC connection's settings (PUT): the whole input again, with the same `providerType`;
   * omitted secrets and an omitted `enabled` keep their values.
   */
  async updateOidcConnectionAsync(
    connectionId: string,
    request: UpdateOidcConnectionBody,
    actor?: AdminActor,
  ): Promise<SvcOidcConnection> {
    const id = this.#id(connectionId);
    const input = validate(updateOidcConnectionBodySchema, request, 'OIDC connection');
    return toSvcOidcConnection(await this.#connections.update(id, input, actor));
  }

  /** Enables an OIDC connection (idempotent). */
  async enableOidcConnectionAsync(connectionId: string, actor?: AdminActor): Promise<SvcOidcConnection> {
    return toSvcOidcConnection(await this.#connections.setEnabled(this.#id(connectionId), true, actor));
  }

  /** Disables an OIDC connection (idempotent): sign-in through it stops on every node at once. */
  async disableOidcConnectionAsync(connectionId: string, actor?: AdminActor): Promise<SvcOidcConnection> {
    return toSvcOidcConnection(await this.#connections.setEnabled(this.#id(connectionId), false, actor));
  }

  /** Deletes an OIDC connection with its sealed secrets; a 404 for an unknown id. */
  async deleteOidcConnectionAsync(
    connectionId: string,
    actor?: AdminActor,
  ): Promise<SvcOidcConnectionDeleteResult> {
    await this.#connections.delete(this.#id(connectionId), actor);
    return { deleted: true };
  }

  #id(connectionId: string): string {
    return validate(oidcConnectionPathSchema, { id: connectionId }, 'connection id').id;
  }
}
