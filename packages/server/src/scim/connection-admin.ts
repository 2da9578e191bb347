import type {
  ConnectionListInput,
  CreateScimConnectionInput,
  Page,
  PageQuery,
  ScimSyncEventQuery,
  UpdateScimConnectionInput,
} from '@svc/contract';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import { SvcConfigError, SvcConflictError, SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import type { Ids } from '../kernel/ids.js';
import type { ScimDirectoryEvents } from './directory-events.js';
import { checkGrantBoundaryId } from './grant-boundary.js';
import type {
  ListedScimConnection,
  ScimConnectionChanges,
  ScimConnectionRecord,
  ScimConnectionRepository,
  ScimSyncEventRecord,
  ScimSyncEventRepository,
} from './repository.js';
import { newScimToken, scimTokenHash } from './token.js';

/** A connection seeded from code, checked; its token is read on every start (`tokenSecretName`). */
export interface ScimConnectionSeed {
  readonly id: string;
  readonly organizationId: string;
  readonly displayName: string;
  readonly grantBoundaryResourceId: string | null;
  readonly enabled: boolean;
  /** Exactly one of the two is set. */
  readonly token: string | null;
  readonly tokenSecretName: string | null;
}

export interface ScimConnectionAdminDeps {
  readonly repository: ScimConnectionRepository;
  readonly syncEvents: ScimSyncEventRepository;
  readonly organizationExists: (organizationId: string) => Promise<boolean>;
  readonly events: ScimDirectoryEvents;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** A connection and the bearer token just issued for it (create, rotate): the only time it is seen. */
export interface ScimConnectionWithToken {
  readonly connection: ScimConnectionRecord;
  readonly token: string;
}

/**
 * The operators' SCIM connections (docs/reference/scim.md "Connections"): created disabled with
 * a one-time token (only its SHA-256 is stored), enabled when no other connection of the organization
 * is (409 otherwise), disabled (its token is refused at once), the token rotated (the old one stops
 * working), the grant boundary set or changed but never removed. Connections seeded from code
 * (`createSvc({ scim })`) are changed only by their seed: the API refuses to change them (400).
 * Audited as `admin.scim_connection.created`, `.updated`, `.enabled`, `.disabled`, `.token_rotated`, and
 * `scim.connection.grant_boundary_changed` (docs/reference/events.md).
 */
export class ScimConnectionAdmin {
  readonly #deps: ScimConnectionAdminDeps;

  constructor(deps: ScimConnectionAdminDeps) {
    this.#deps = deps;
  }

  async create(input: CreateScimConnectionInput, actor?: AdminActor): Promise<ScimConnectionWithToken> {
    const { repository, clock, ids } = this.#deps;
    await this.#requireOrganization(input.organizationId);
    const token = newScimToken(ids);
    const now = clock.now();
    const connection: ScimConnectionRecord = {
      id: ids.id('scim'),
      organizationId: input.organizationId,
      displayName: input.displayName ?? 'SCIM',
      enabled: false,
      tokenHash: scimTokenHash(token),
      grantBoundaryResourceId:
        input.grantBoundaryResourceId == null ? null : checkGrantBoundaryId(input.grantBoundaryResourceId),
      owner: 'dashboard',
      createdAt: now,
      updatedAt: now,
    };
    // Created disabled, so the one-enabled index cannot refuse it.
    await repository.insert(connection);
    await this.#record('admin.scim_connection.created', connection, actor, {
      grantBoundaryResourceId: connection.grantBoundaryResourceId,
    });
    return { connection, token };
  }

  async get(id: string): Promise<ScimConnectionRecord> {
    const found = await this.#deps.repository.findById(id);
    if (found === undefined) throw new SvcNotFoundError(`SCIM connection '${id}' was not found.`);
    return found;
  }

  async listForOrganization(organizationId: string, query: PageQuery): Promise<Page<ScimConnectionRecord>> {
    await this.#requireOrganization(organizationId);
    return this.#deps.repository.listForOrganization(organizationId, query);
  }

  /** Every organization's connections, newest first, with their organization (an unknown one lists none). */
  list(query: ConnectionListInput): Promise<Page<ListedScimConnection>> {
    return this.#deps.repository.list(query);
  }

  /**
   * PUT: the given fields; a null or omitted boundary keeps the current one (docs/reference/scim.md "The
   * grant boundary").
   */
  async update(
    id: string,
    input: UpdateScimConnectionInput,
    actor?: AdminActor,
  ): Promise<ScimConnectionRecord> {
    const current = await this.#changeable(id);
    const changes: ScimConnectionChanges = {
      ...(input.displayName === undefined || input.displayName === current.displayName
        ? {}
        : { displayName: input.displayName }),
      ...(input.enabled === undefined || input.enabled === current.enabled ? {} : { enabled: input.enabled }),
      ...(input.grantBoundaryResourceId == null ||
      input.grantBoundaryResourceId === current.grantBoundaryResourceId
        ? {}
        : { grantBoundaryResourceId: checkGrantBoundaryId(input.grantBoundaryResourceId) }),
    };
    if (Object.keys(changes).length === 0) return current;
    const updated = await this.#write(current, changes);
    if (changes.displayName !== undefined) {
      await this.#record('admin.scim_connection.updated', updated, actor, {
        displayName: updated.displayName,
      });
    }
    await this.#afterChange(current, updated, actor);
    return updated;
  }

  /** Enables or disables (idempotent); enabling while another connection of the organization is on is a 409. */
  async setEnabled(id: string, enabled: boolean, actor?: AdminActor): Promise<ScimConnectionRecord> {
    const current = await this.#changeable(id);
    if (current.enabled === enabled) return current;
    const updated = await this.#write(current, { enabled });
    await this.#afterChange(current, updated, actor);
    return updated;
  }

  /** A new token, returned once; the previous one is refused from now on, on every node. */
  async rotateToken(id: string, actor?: AdminActor): Promise<ScimConnectionWithToken> {
    const current = await this.#changeable(id);
    const token = newScimToken(this.#deps.ids);
    const connection = await this.#write(current, { tokenHash: scimTokenHash(token) });
    await this.#record('admin.scim_connection.token_rotated', connection, actor);
    return { connection, token };
  }

  /**
   * Writes a connection configured in code (every start): created or brought to the seed's settings
   * and token, owned by code. A dashboard connection with the seed's id, an unknown organization or a
   * second enabled connection stops the start with the reason.
   */
  async applySeed(seed: ScimConnectionSeed, token: string): Promise<ScimConnectionRecord> {
    const { repository, clock } = this.#deps;
    if (!(await this.#deps.organizationExists(seed.organizationId))) {
      throw new SvcConfigError(
        `SCIM connection seed '${seed.id}': organization '${seed.organizationId}' does not exist.`,
      );
    }
    const settings = {
      displayName: seed.displayName,
      enabled: seed.enabled,
      tokenHash: scimTokenHash(token),
      grantBoundaryResourceId:
        seed.grantBoundaryResourceId === null ? null : checkGrantBoundaryId(seed.grantBoundaryResourceId),
    };
    const current = await repository.findById(seed.id);
    const conflict = `SCIM connection seed '${seed.id}': organization '${seed.organizationId}' already has an enabled SCIM connection.`;
    if (current === undefined) {
      const now = clock.now();
      const created: ScimConnectionRecord = {
        id: seed.id,
        organizationId: seed.organizationId,
        ...settings,
        owner: 'code',
        createdAt: now,
        updatedAt: now,
      };
      if ((await repository.insert(created)) === 'enabled_elsewhere') throw new SvcConfigError(conflict);
      await this.#record('admin.scim_connection.created', created, undefined, { owner: 'code' });
      return created;
    }
    if (current.owner !== 'code' || current.organizationId !== seed.organizationId) {
      throw new SvcConfigError(
        `SCIM connection seed '${seed.id}': a connection with this id exists and is not this seed's.`,
      );
    }
    const updated = await repository.update(seed.id, settings, clock.now());
    if (updated === 'enabled_elsewhere') throw new SvcConfigError(conflict);
    if (updated === undefined) throw new SvcNotFoundError(`SCIM connection '${seed.id}' was not found.`);
    await this.#afterChange(current, updated, undefined);
    return updated;
  }

  async listSyncEvents(id: string, query: ScimSyncEventQuery): Promise<Page<ScimSyncEventRecord>> {
    await this.get(id);
    return this.#deps.syncEvents.list(id, query);
  }

  async #changeable(id: string): Promise<ScimConnectionRecord> {
    const current = await this.get(id);
    if (current.owner === 'code') {
      throw new SvcValidationError(
        `SCIM connection '${id}' is configured in code (createSvc({ scim })): change it there.`,
      );
    }
    return current;
  }

  async #write(current: ScimConnectionRecord, changes: ScimConnectionChanges): Promise<ScimConnectionRecord> {
    const updated = await this.#deps.repository.update(current.id, changes, this.#deps.clock.now());
    if (updated === undefined) throw new SvcNotFoundError(`SCIM connection '${current.id}' was not found.`);
    if (updated === 'enabled_elsewhere') {
      throw new SvcConflictError(
        `Organization '${current.organizationId}' already has an enabled SCIM connection: disable it first.`,
      );
    }
    return updated;
  }

  /** Audits an enable, disable or boundary change and tells the subscribers what ends access. */
  async #afterChange(
    before: ScimConnectionRecord,
    after: ScimConnectionRecord,
    actor: AdminActor | undefined,
  ): Promise<void> {
    const scope = {
      connectionId: after.id,
      organizationId: after.organizationId,
      grantBoundaryResourceId: after.grantBoundaryResourceId,
      previousGrantBoundaryResourceId: before.grantBoundaryResourceId,
    };
    if (before.enabled !== after.enabled) {
      await this.#record(
        after.enabled ? 'admin.scim_connection.enabled' : 'admin.scim_connection.disabled',
        after,
        actor,
      );
      if (!after.enabled) await this.#deps.events.connectionChanged({ ...scope, change: 'disabled' });
    }
    if (before.grantBoundaryResourceId !== after.grantBoundaryResourceId) {
      await this.#record('scim.connection.grant_boundary_changed', after, actor, {
        previousGrantBoundaryResourceId: before.grantBoundaryResourceId,
        grantBoundaryResourceId: after.grantBoundaryResourceId,
      });
      await this.#deps.events.connectionChanged({ ...scope, change: 'grant_boundary_changed' });
    }
  }

  async #requireOrganization(organizationId: string): Promise<void> {
    if (!(await this.#deps.organizationExists(organizationId))) {
      throw new SvcNotFoundError(`Organization '${organizationId}' was not found.`);
    }
  }

  #record(
    kind: string,
    connection: ScimConnectionRecord,
    actor: AdminActor | undefined,
    data: Readonly<Record<string, unknown>> = {},
  ): Promise<void> {
    return this.#deps.audit.record({
      kind,
      ...actorFields(actor),
      organizationId: connection.organizationId,
      data: { connectionId: connection.id, ...data },
    });
  }
}
