import {
  connectionListQuerySchema,
  createScimConnectionRequestSchema,
  pageQuerySchema,
  scimConnectionPathSchema,
  scimOrganizationPathSchema,
  scimSyncEventQuerySchema,
  updateScimConnectionBodySchema,
  type ConnectionListQuery,
  type CreateScimConnectionRequest,
  type Page,
  type SvcPageRequest,
  type SvcScimConnection,
  type SvcScimConnectionListItem,
  type SvcScimConnectionWithToken,
  type SvcScimSyncEvent,
  type UpdateScimConnectionBody,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import { validate } from '../../kernel/validation.js';
import type { ScimConnectionAdmin } from '../../scim/connection-admin.js';
import { grantBoundaryOf, type GrantBoundaryResources } from '../../scim/grant-boundary.js';
import type { ScimConnectionRecord } from '../../scim/repository.js';
import { toSvcScimSyncEvent } from '../../scim/views.js';

export interface SvcAdminScimConnectionsDeps {
  readonly scimConnections: {
    readonly admin: ScimConnectionAdmin;
    /** Where grant boundaries are looked up (the FGA resource tree). */
    readonly boundaries: GrantBoundaryResources;
    /** `{PublicOrigin}{ScimBasePath}`. */
    readonly baseUrl: string;
  };
}

/**
 * The SCIM connection operations of SvcAdminService (docs/reference/scim.md "Connections";
 * docs/reference/scim.md "Connections"). Inputs are validated with the contract
 * schemas of the HTTP routes (400); a boundary id over 256 characters is a SvcGrantBoundaryError
 * `grant_boundary_invalid` (400); an unknown organization or connection is a 404; enabling a second
 * connection of an organization a 409; changing a connection seeded from code a 400.
 */
export class SvcAdminScimConnections {
  readonly #scim: SvcAdminScimConnectionsDeps['scimConnections'];

  constructor(deps: SvcAdminScimConnectionsDeps) {
    this.#scim = deps.scimConnections;
  }

  /** A disabled connection with its Base URL and bearer token: the token is shown this once. */
  async createScimConnectionAsync(
    request: CreateScimConnectionRequest,
    actor?: AdminActor,
  ): Promise<SvcScimConnectionWithToken> {
    const input = validate(createScimConnectionRequestSchema, request, 'SCIM connection');
    const { connection, token } = await this.#scim.admin.create(input, actor);
    return { ...(await this.#view(connection)), token };
  }

  /** One connection (never its token); a 404 for an unknown id. */
  async getScimConnectionAsync(connectionId: string): Promise<SvcScimConnection> {
    return this.#view(await this.#scim.admin.get(this.#id(connectionId)));
  }

  /** The organization's connections, newest first. */
  async listScimConnectionsAsync(
    organizationId: string,
    request: SvcPageRequest = {},
  ): Promise<Page<SvcScimConnection>> {
    const path = validate(scimOrganizationPathSchema, { organizationId }, 'organization id');
    const page = await this.#scim.admin.listForOrganization(
      path.organizationId,
      validate(pageQuerySchema, request, 'page request'),
    );
    return { data: await Promise.all(page.data.map((c) => this.#view(c))), nextCursor: page.nextCursor };
  }

  /**
   * Every organization's SCIM connections (never a token), newest first, each with its organization
   * `{ id, name }`; `organizationId` and `enabled` narrow the list (an unknown organization lists none).
   */
  async listAllScimConnectionsAsync(
    request: ConnectionListQuery = {},
  ): Promise<Page<SvcScimConnectionListItem>> {
    const query = validate(connectionListQuerySchema, request, 'connection list query');
    const page = await this.#scim.admin.list(query);
    return {
      data: await Promise.all(
        page.data.map(async ({ connection, organization }) => ({
          ...(await this.#view(connection)),
          organization,
        })),
      ),
      nextCursor: page.nextCursor,
    };
  }

  /** Display name, enabled state and boundary; an omitted or null boundary keeps the current one. */
  async updateScimConnectionAsync(
    connectionId: string,
    request: UpdateScimConnectionBody,
    actor?: AdminActor,
  ): Promise<SvcScimConnection> {
    const input = validate(updateScimConnectionBodySchema, request, 'SCIM connection');
    return this.#view(await this.#scim.admin.update(this.#id(connectionId), input, actor));
  }

  /** Enables the connection (idempotent); 409 while another connection of the organization is enabled. */
  async enableScimConnectionAsync(connectionId: string, actor?: AdminActor): Promise<SvcScimConnection> {
    return this.#view(await this.#scim.admin.setEnabled(this.#id(connectionId), true, actor));
  }

  /** Disables the connection (idempotent): its token is refused at once, on every node. */
  async disableScimConnectionAsync(connectionId: string, actor?: AdminActor): Promise<SvcScimConnection> {
    return this.#view(await this.#scim.admin.setEnabled(this.#id(connectionId), false, actor));
  }

  /** A new bearer token, shown this once; the previous token is refused from now on. */
  async rotateScimConnectionTokenAsync(
    connectionId: string,
    actor?: AdminActor,
  ): Promise<SvcScimConnectionWithToken> {
    const { connection, token } = await this.#scim.admin.rotateToken(this.#id(connectionId), actor);
    return { ...(await this.#view(connection)), token };
  }

  /** The connection's sync events (SCIM activity and reconciliation errors), newest first. */
  async listScimSyncEventsAsync(
    connectionId: string,
    request: SvcPageRequest & { readonly outcome?: 'succeeded' | 'failed' } = {},
  ): Promise<Page<SvcScimSyncEvent>> {
    const query = validate(scimSyncEventQuerySchema, request, 'sync event query');
    const page = await this.#scim.admin.listSyncEvents(this.#id(connectionId), query);
    return { data: page.data.map(toSvcScimSyncEvent), nextCursor: page.nextCursor };
  }

  #id(connectionId: string): string {
    return validate(scimConnectionPathSchema, { id: connectionId }, 'connection id').id;
  }

  async #view(connection: ScimConnectionRecord): Promise<SvcScimConnection> {
    return {
      id: connection.id,
      organizationId: connection.organizationId,
      displayName: connection.displayName,
      baseUrl: this.#scim.baseUrl,
      enabled: connection.enabled,
      grantBoundary: await grantBoundaryOf(connection.grantBoundaryResourceId, this.#scim.boundaries),
      owner: connection.owner,
      createdAt: new Date(connection.createdAt).toISOString(),
      updatedAt: new Date(connection.updatedAt).toISOString(),
    };
  }
}
