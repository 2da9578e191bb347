import type { AdminActor } from '../audit/actor.js';
import { SvcConflictError, SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import { recordFgaEvent, type FgaDeps } from './deps.js';
import type { FgaDefinitionKind, FgaDefinitionRecord, FgaPage, FgaPageRequest } from './repository.js';

const ID_PREFIX: Record<FgaDefinitionKind, string> = {
  resource_type: 'frt',
  permission: 'fpm',
  role: 'frl',
};

const LABEL: Record<FgaDefinitionKind, string> = {
  resource_type: 'resource type',
  permission: 'permission',
  role: 'role',
};

/** What is refused when a definition still has users (the operator removes those first). */
const IN_USE: Record<FgaDefinitionKind, string> = {
  resource_type: 'Resources of this type exist; delete them first.',
  permission: 'A role lists this permission; take it out of the role first.',
  role: 'Grants of this role exist; revoke them first.',
};

export interface CreateDefinitionInput {
  readonly key: string;
  readonly name: string;
  readonly permissionKeys?: readonly string[];
}

export interface UpdateDefinitionInput {
  readonly name?: string | undefined;
  readonly permissionKeys?: readonly string[] | undefined;
}

/**
 * Resource types, permissions and roles (docs/reference/fga.md "The model"): keyed records an operator
 * creates, renames and deletes; a role lists permission keys, each of which must be a permission. A key never
 * changes (grants and the host app's checks name it); what is in use cannot be deleted.
 */
export class FgaDefinitions {
  readonly #deps: FgaDeps;

  constructor(deps: FgaDeps) {
    this.#deps = deps;
  }

  list(kind: FgaDefinitionKind, page: FgaPageRequest): Promise<FgaPage<FgaDefinitionRecord>> {
    return this.#deps.repository.listDefinitions(kind, page);
  }

  async get(kind: FgaDefinitionKind, id: string): Promise<FgaDefinitionRecord> {
    const record = await this.#deps.repository.findDefinition(kind, id);
    if (record === undefined) throw new SvcNotFoundError(`No ${LABEL[kind]} has this id.`);
    return record;
  }

  async create(
    kind: FgaDefinitionKind,
    input: CreateDefinitionInput,
    actor?: AdminActor,
  ): Promise<FgaDefinitionRecord> {
    const now = this.#deps.clock.now();
    const record: FgaDefinitionRecord = {
      id: this.#deps.ids.id(ID_PREFIX[kind]),
      kind,
      key: input.key,
      name: input.name,
      permissionKeys: kind === 'role' ? [...(input.permissionKeys ?? [])] : [],
      createdAt: now,
      updatedAt: now,
    };
    await this.#deps.repository.write(async (tx) => {
      if (kind === 'role') await requirePermissions(tx, record.permissionKeys);
      if (!(await tx.insertDefinition(record))) {
        throw new SvcConflictError(`A ${LABEL[kind]} with the key ${input.key} exists already.`);
      }
    });
    await this.#record(kind, 'created', record, actor);
    return record;
  }

  async update(
    kind: FgaDefinitionKind,
    id: string,
    input: UpdateDefinitionInput,
    actor?: AdminActor,
  ): Promise<FgaDefinitionRecord> {
    const updated = await this.#deps.repository.write(async (tx) => {
      const current = await tx.findDefinition(kind, id);
      if (current === undefined) throw new SvcNotFoundError(`No ${LABEL[kind]} has this id.`);
      if (input.permissionKeys !== undefined) await requirePermissions(tx, input.permissionKeys);
      const changes = {
        updatedAt: this.#deps.clock.now(),
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.permissionKeys === undefined || kind !== 'role'
          ? {}
          : { permissionKeys: [...input.permissionKeys] }),
      };
      await tx.updateDefinition(id, changes);
      return { ...current, ...changes };
    });
    await this.#record(kind, 'updated', updated, actor);
    return updated;
  }

  async delete(kind: FgaDefinitionKind, id: string, actor?: AdminActor): Promise<void> {
    const deleted = await this.#deps.repository.write(async (tx) => {
      const current = await tx.findDefinition(kind, id);
      if (current === undefined) throw new SvcNotFoundError(`No ${LABEL[kind]} has this id.`);
      const inUse =
        kind === 'permission' ? await tx.permissionInUse(current.key) : await tx.definitionInUse(kind, id);
      if (inUse) throw new SvcConflictError(IN_USE[kind]);
      await tx.deleteDefinition(id);
      return current;
    });
    await this.#record(kind, 'deleted', deleted, actor);
  }

  async #record(
    kind: FgaDefinitionKind,
    what: string,
    record: FgaDefinitionRecord,
    actor: AdminActor | undefined,
  ): Promise<void> {
    await recordFgaEvent(this.#deps, `${kind}.${what}`, actor, {
      id: record.id,
      key: record.key,
      name: record.name,
      ...(kind === 'role' ? { permissionKeys: record.permissionKeys } : {}),
    });
  }
}

async function requirePermissions(
  tx: { existingPermissionKeys(keys: readonly string[]): Promise<Set<string>> },
  keys: readonly string[],
): Promise<void> {
  const known = await tx.existingPermissionKeys(keys);
  const unknown = keys.filter((key) => !known.has(key));
  if (unknown.length > 0) {
    throw new SvcValidationError(`No permission has the key ${unknown.join(', ')}.`, [
      { path: 'permissionKeys', message: `unknown permission keys: ${unknown.join(', ')}` },
    ]);
  }
}
