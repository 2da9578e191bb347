import { FGA_MAX_DEPTH } from '@svc/contract';
import type { AdminActor } from '../audit/actor.js';
import { SvcConflictError, SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import { unknownReference } from './errors.js';
import { recordFgaEvent, recordGrantEvent, type FgaDeps } from './deps.js';
import type { FgaResourceMoves } from './resource-moves.js';
import type { FgaPage, FgaPageRequest, FgaReads, FgaResourceRecord } from './repository.js';

export interface CreateResourceInput {
  readonly name: string;
  readonly typeId: string;
  readonly parentId: string | null;
}

export interface UpdateResourceInput {
  readonly name?: string | undefined;
  /** A new parent (null: a root); undefined leaves it. */
  readonly parentId?: string | null | undefined;
}

/** A resource with the ids above it, parent first and root last. */
export interface FgaResourceDetail extends FgaResourceRecord {
  readonly ancestorIds: readonly string[];
}

/**
 * The resource tree: every resource has a type and at most one parent (of any type: an organization
 * holds projects, a project documents), a root sits at depth 1 and nothing deeper than
 * {@link FGA_MAX_DEPTH}. A move that would put a resource under itself or push its subtree below the
 * limit is refused; the checks run inside the write, which every other FGA write waits for, so two
 * moves cannot close a cycle together.
 */
export class FgaResources {
  readonly #deps: FgaDeps;
  readonly #moves: FgaResourceMoves;

  constructor(deps: FgaDeps, moves: FgaResourceMoves) {
    this.#deps = deps;
    this.#moves = moves;
  }

  list(
    filter: { readonly parentId?: string | null; readonly typeId?: string },
    page: FgaPageRequest,
  ): Promise<FgaPage<FgaResourceRecord>> {
    return this.#deps.repository.listResources(filter, page);
  }

  async get(id: string): Promise<FgaResourceDetail> {
    const record = await this.#deps.repository.findResource(id);
    if (record === undefined) throw new SvcNotFoundError('No resource has this id.');
    const chain = await this.#deps.repository.ancestorChain(id, FGA_MAX_DEPTH);
    return { ...record, ancestorIds: chain.slice(1) };
  }

  async create(input: CreateResourceInput, actor?: AdminActor): Promise<FgaResourceRecord> {
    const now = this.#deps.clock.now();
    const record: FgaResourceRecord = {
      id: this.#deps.ids.id('frs'),
      typeId: input.typeId,
      parentId: input.parentId,
      name: input.name,
      createdAt: now,
      updatedAt: now,
    };
    await this.#deps.repository.write(async (tx) => {
      if ((await tx.findDefinition('resource_type', input.typeId)) === undefined) {
        throw unknownReference('typeId', 'No resource type has this id.');
      }
      if (input.parentId !== null) await requirePlace(tx, input.parentId, 1);
      await tx.insertResource(record);
    });
    await this.#record('created', record, actor);
    return record;
  }

  /**
   * Renames or moves the resource. A move is told to the {@link FgaResourceMoves} subscribers with the
   * ancestors before and after, once written and before the answer: the SCIM mapping rules revoke there
   * the grants it takes out of a connection's grant boundary.
   */
  async update(id: string, input: UpdateResourceInput, actor?: AdminActor): Promise<FgaResourceRecord> {
    const { updated, move } = await this.#deps.repository.write(async (tx) => {
      const current = await tx.findResource(id);
      if (current === undefined) throw new SvcNotFoundError('No resource has this id.');
      const parentId = input.parentId;
      const moving = parentId !== undefined && parentId !== current.parentId;
      if (moving && parentId !== null) {
        await requirePlace(tx, parentId, 1 + (await tx.subtreeHeight(id, FGA_MAX_DEPTH)), id);
      }
      const before = moving ? await tx.ancestorChain(id, FGA_MAX_DEPTH) : [];
      const changes = {
        updatedAt: this.#deps.clock.now(),
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(parentId === undefined ? {} : { parentId }),
      };
      await tx.updateResource(id, changes);
      const after = moving ? await tx.ancestorChain(id, FGA_MAX_DEPTH) : [];
      return {
        updated: { ...current, ...changes },
        move: moving
          ? { resourceId: id, previousAncestorIds: before.slice(1), ancestorIds: after.slice(1) }
          : undefined,
      };
    });
    await this.#record('updated', updated, actor);
    if (move !== undefined) await this.#moves.moved(move);
    return updated;
  }

  /** Deletes a leaf with the grants on it; a resource with children is refused (409). */
  async delete(id: string, actor?: AdminActor): Promise<void> {
    const { deleted, revoked } = await this.#deps.repository.write(async (tx) => {
      const current = await tx.findResource(id);
      if (current === undefined) throw new SvcNotFoundError('No resource has this id.');
      if (await tx.hasChildren(id)) {
        throw new SvcConflictError('This resource has children; delete or move them first.');
      }
      const grants = await tx.deleteGrants({ resourceId: id });
      await tx.deleteResource(id);
      return { deleted: current, revoked: grants };
    });
    for (const grant of revoked)
      await recordGrantEvent(this.#deps, 'revoked', grant, actor, 'resource_deleted');
    await this.#record('deleted', deleted, actor);
  }

  async #record(what: string, record: FgaResourceRecord, actor: AdminActor | undefined): Promise<void> {
    await recordFgaEvent(this.#deps, `resource.${what}`, actor, {
      id: record.id,
      name: record.name,
      typeId: record.typeId,
      parentId: record.parentId,
    });
  }
}

/**
 * Refuses (400 naming `parentId`) an unknown parent, a parent inside the subtree of the resource being
 * moved (a cycle), and a place where `levels` more levels would go deeper than the limit.
 */
async function requirePlace(
  tx: FgaReads,
  parentId: string,
  levels: number,
  movingId?: string,
): Promise<void> {
  const chain = await tx.ancestorChain(parentId, FGA_MAX_DEPTH + 1);
  if (chain.length === 0) {
    throw unknownReference('parentId', 'No resource has the parentId given.');
  }
  if (movingId !== undefined && chain.includes(movingId)) {
    throw new SvcValidationError('A resource cannot move under itself or under one of its descendants.', [
      { path: 'parentId', message: 'would make a cycle' },
    ]);
  }
  if (chain.length + levels > FGA_MAX_DEPTH) {
    throw new SvcValidationError(`Resources nest at most ${FGA_MAX_DEPTH} levels deep.`, [
      { path: 'parentId', message: `would be deeper than ${FGA_MAX_DEPTH} levels` },
    ]);
  }
}
