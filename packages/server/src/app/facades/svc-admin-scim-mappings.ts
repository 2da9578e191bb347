import {
  createScimMappingBodySchema,
  pageQuerySchema,
  scimConnectionPathSchema,
  scimMappingPathSchema,
  updateScimMappingBodySchema,
  type CreateScimMappingBody,
  type Page,
  type SvcPageRequest,
  type SvcScimMapping,
  type UpdateScimMappingBody,
} from '@svc/contract';
import type { AdminActor } from '../../audit/actor.js';
import { validate } from '../../kernel/validation.js';
import type { ScimMappingAdmin } from '../../scim-mappings/mapping-admin.js';
import type { ScimMappingRecord } from '../../scim-mappings/repository.js';

export interface SvcAdminScimMappingsDeps {
  /** The SCIM group mapping rules (checked against the grant boundary and audited there). */
  readonly scimMappings: ScimMappingAdmin;
}

/**
 * The SCIM group mapping rule operations of SvcAdminService (docs/reference/scim.md "Mapping rules").
 * Bodies are validated with the contract schemas of the HTTP routes (400); an unknown role or resource
 * is a 400 naming the field; an enabled rule outside the grant boundary is a SvcGrantBoundaryError (400
 * with the code docs/reference/scim.md "The grant boundary" names); an unknown connection or rule a
 * 404. Reads carry `grantBoundaryStatus`.
 */
export class SvcAdminScimMappings {
  readonly #mappings: ScimMappingAdmin;

  constructor(deps: SvcAdminScimMappingsDeps) {
    this.#mappings = deps.scimMappings;
  }

  /** A rule on the connection; enabled (the default) only inside the grant boundary. Grants on the next push. */
  async createScimMappingAsync(
    connectionId: string,
    request: CreateScimMappingBody,
    actor?: AdminActor,
  ): Promise<SvcScimMapping> {
    const input = validate(createScimMappingBodySchema, request, 'SCIM mapping rule');
    return this.#view(await this.#mappings.create(this.#connectionId(connectionId), input, actor));
  }

  /** The connection's rules, newest first. */
  async listScimMappingsAsync(
    connectionId: string,
    request: SvcPageRequest = {},
  ): Promise<Page<SvcScimMapping>> {
    const page = await this.#mappings.listForConnection(
      this.#connectionId(connectionId),
      validate(pageQuerySchema, request, 'page request'),
    );
    return {
      data: await Promise.all(page.data.map((rule) => this.#view(rule))),
      nextCursor: page.nextCursor,
    };
  }

  async getScimMappingAsync(mappingId: string): Promise<SvcScimMapping> {
    return this.#view(await this.#mappings.get(this.#id(mappingId)));
  }

  /** Changes what is given; the grants of the previous state that nothing else justifies are revoked at once. */
  async updateScimMappingAsync(
    mappingId: string,
    request: UpdateScimMappingBody,
    actor?: AdminActor,
  ): Promise<SvcScimMapping> {
    const input = validate(updateScimMappingBodySchema, request, 'SCIM mapping rule');
    return this.#view(await this.#mappings.update(this.#id(mappingId), input, actor));
  }

  /** Enables the rule (checked against the boundary); its grants come back with the next push. */
  async enableScimMappingAsync(mappingId: string, actor?: AdminActor): Promise<SvcScimMapping> {
    return this.#view(await this.#mappings.setEnabled(this.#id(mappingId), true, actor));
  }

  /** Disables the rule; its grants are revoked before this returns. */
  async disableScimMappingAsync(mappingId: string, actor?: AdminActor): Promise<SvcScimMapping> {
    return this.#view(await this.#mappings.setEnabled(this.#id(mappingId), false, actor));
  }

  /** Deletes the rule; its grants are revoked before this returns. */
  async deleteScimMappingAsync(mappingId: string, actor?: AdminActor): Promise<void> {
    await this.#mappings.delete(this.#id(mappingId), actor);
  }

  #id(mappingId: string): string {
    return validate(scimMappingPathSchema, { id: mappingId }, 'mapping rule id').id;
  }

  #connectionId(connectionId: string): string {
    return validate(scimConnectionPathSchema, { id: connectionId }, 'connection id').id;
  }

  async #view(rule: ScimMappingRecord): Promise<SvcScimMapping> {
    return {
      id: rule.id,
      connectionId: rule.connectionId,
      displayName: rule.displayName,
      match: { groupDisplayName: rule.groupDisplayName, groupExternalId: rule.groupExternalId },
      roleId: rule.roleId,
      resourceId: rule.resourceId,
      enabled: rule.enabled,
      grantBoundaryStatus: await this.#mappings.boundaryStatusOf(rule),
      createdAt: new Date(rule.createdAt).toISOString(),
      updatedAt: new Date(rule.updatedAt).toISOString(),
    };
  }
}
