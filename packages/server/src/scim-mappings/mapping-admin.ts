import type {
  CreateScimMappingInput,
  Page,
  PageQuery,
  ScimMappingBoundaryStatus,
  UpdateScimMappingInput,
} from '@svc/contract';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { AuditLog } from '../audit/audit-log.js';
import { unknownReference } from '../fga/errors.js';
import type { Clock } from '../kernel/clock.js';
import { SvcNotFoundError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { ScimConnectionRecord } from '../scim/repository.js';
import { boundaryStatus, requireInsideBoundary } from './boundary.js';
import type { MappingDirectory, MappingResourceTree } from './deps.js';
import type { ScimMappingGrants } from './mapping-grants.js';
import type { ScimMappingChanges, ScimMappingRecord, ScimMappingRepository } from './repository.js';

export interface ScimMappingAdminDeps {
  readonly rules: ScimMappingRepository;
  readonly directory: Pick<MappingDirectory, 'connection'>;
  readonly tree: MappingResourceTree;
  readonly grants: Pick<ScimMappingGrants, 'revokeUnjustified'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

type RuleFields = Pick<ScimMappingRecord, 'roleId' | 'resourceId' | 'enabled'>;

/**
 * The operators' mapping rules of a SCIM connection (docs/reference/scim.md "Mapping
 * rules"). The role and the resource must exist (400 naming the field); an enabled rule must be inside
 * the connection's grant boundary, else SvcGrantBoundaryError with the page's code. Disabling, updating
 * or deleting a rule revokes, before it answers, the grants its previous state made that nothing else
 * justifies; creating or enabling one grants nothing until the IdP pushes a matching group. Audited as
 * `admin.scim_mapping.created`, `.updated`, `.enabled`, `.disabled`, `.deleted`.
 */
export class ScimMappingAdmin {
  readonly #deps: ScimMappingAdminDeps;

  constructor(deps: ScimMappingAdminDeps) {
    this.#deps = deps;
  }

  async create(
    connectionId: string,
    input: CreateScimMappingInput,
    actor?: AdminActor,
  ): Promise<ScimMappingRecord> {
    const connection = await this.#connection(connectionId);
    await this.#check(connection, input);
    const now = this.#deps.clock.now();
    const rule: ScimMappingRecord = {
      id: this.#deps.ids.id('smr'),
      connectionId: connection.id,
      displayName: input.displayName,
      groupDisplayName: input.match.groupDisplayName ?? null,
      groupExternalId: input.match.groupExternalId ?? null,
      roleId: input.roleId,
      resourceId: input.resourceId,
      enabled: input.enabled,
      createdAt: now,
      updatedAt: now,
    };
    await this.#deps.rules.insert(rule);
    await this.#record('admin.scim_mapping.created', connection, rule, actor);
    return rule;
  }

  async get(id: string): Promise<ScimMappingRecord> {
    const found = await this.#deps.rules.findById(id);
    if (found === undefined) throw new SvcNotFoundError(`SCIM mapping rule '${id}' was not found.`);
    return found;
  }

  async listForConnection(connectionId: string, query: PageQuery): Promise<Page<ScimMappingRecord>> {
    await this.#connection(connectionId);
    return this.#deps.rules.listForConnection(connectionId, query);
  }

  /** PUT: the given fields change (`match` whole); the grants of the previous state go at once. */
  async update(id: string, input: UpdateScimMappingInput, actor?: AdminActor): Promise<ScimMappingRecord> {
    const current = await this.get(id);
    const changes: ScimMappingChanges = {
      ...(input.displayName === undefined ? {} : { displayName: input.displayName }),
      ...(input.match === undefined
        ? {}
        : {
            groupDisplayName: input.match.groupDisplayName ?? null,
            groupExternalId: input.match.groupExternalId ?? null,
          }),
      ...(input.roleId === undefined ? {} : { roleId: input.roleId }),
      ...(input.resourceId === undefined ? {} : { resourceId: input.resourceId }),
      ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
    };
    const changed = (Object.keys(changes) as (keyof ScimMappingChanges)[]).filter(
      (field) => changes[field] !== current[field],
    );
    if (changed.length === 0) return current;
    return this.#write(current, changes, actor, changed.length === 1 && changed[0] === 'enabled');
  }

  /** Enables (checked against the boundary) or disables (its grants revoked at once); idempotent. */
  async setEnabled(id: string, enabled: boolean, actor?: AdminActor): Promise<ScimMappingRecord> {
    const current = await this.get(id);
    if (current.enabled === enabled) return current;
    return this.#write(current, { enabled }, actor, true);
  }

  /** Deletes the rule and revokes what it alone justified. */
  async delete(id: string, actor?: AdminActor): Promise<void> {
    const current = await this.get(id);
    const connection = await this.#connection(current.connectionId);
    await this.#deps.rules.delete(id);
    await this.#record('admin.scim_mapping.deleted', connection, current, actor);
    if (current.enabled) await this.#deps.grants.revokeUnjustified(connection.id, 'scim_mapping_deleted');
  }

  /**
   * docs/reference/scim.md "Mapping rules": reads carry grantBoundaryStatus, where the rule's resource stands
   * against the boundary now.
   */
  async boundaryStatusOf(rule: ScimMappingRecord): Promise<ScimMappingBoundaryStatus> {
    const connection = await this.#connection(rule.connectionId);
    return boundaryStatus(connection.grantBoundaryResourceId, rule.resourceId, this.#deps.tree);
  }

  async #write(
    current: ScimMappingRecord,
    changes: ScimMappingChanges,
    actor: AdminActor | undefined,
    onlyEnabled: boolean,
  ): Promise<ScimMappingRecord> {
    const connection = await this.#connection(current.connectionId);
    await this.#check(connection, { ...current, ...changes });
    const updated = await this.#deps.rules.update(current.id, changes, this.#deps.clock.now());
    if (updated === undefined) throw new SvcNotFoundError(`SCIM mapping rule '${current.id}' was not found.`);
    const kind = onlyEnabled
      ? updated.enabled
        ? 'admin.scim_mapping.enabled'
        : 'admin.scim_mapping.disabled'
      : 'admin.scim_mapping.updated';
    await this.#record(kind, connection, updated, actor);
    // docs/reference/scim.md "Grants": a disabled or updated rule's grants are revoked at once.
    if (current.enabled) {
      await this.#deps.grants.revokeUnjustified(
        connection.id,
        updated.enabled ? 'scim_mapping_updated' : 'scim_mapping_disabled',
      );
    }
    return updated;
  }

  /**
   * The references exist; an enabled rule is inside the boundary (the boundary codes of docs/reference/scim.md "Mapping rules").
   */
  async #check(connection: ScimConnectionRecord, rule: RuleFields): Promise<void> {
    const { tree } = this.#deps;
    if (!(await tree.roleExists(rule.roleId))) throw unknownReference('roleId', 'No role has this id.');
    if ((await tree.ancestorChain(rule.resourceId, 1)).length === 0) {
      throw unknownReference('resourceId', 'No resource has this id.');
    }
    if (rule.enabled) {
      requireInsideBoundary(await boundaryStatus(connection.grantBoundaryResourceId, rule.resourceId, tree));
    }
  }

  async #connection(connectionId: string): Promise<ScimConnectionRecord> {
    const connection = await this.#deps.directory.connection(connectionId);
    if (connection === undefined) {
      throw new SvcNotFoundError(`SCIM connection '${connectionId}' was not found.`);
    }
    return connection;
  }

  #record(
    kind: string,
    connection: ScimConnectionRecord,
    rule: ScimMappingRecord,
    actor: AdminActor | undefined,
  ): Promise<void> {
    return this.#deps.audit.record({
      kind,
      ...actorFields(actor),
      organizationId: connection.organizationId,
      data: {
        connectionId: connection.id,
        mappingId: rule.id,
        groupDisplayName: rule.groupDisplayName,
        groupExternalId: rule.groupExternalId,
        roleId: rule.roleId,
        resourceId: rule.resourceId,
        enabled: rule.enabled,
      },
    });
  }
}
