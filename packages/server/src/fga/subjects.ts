import type { SvcFgaSubjectRef, SvcFgaSubjectType } from '@svc/contract';
import type { AdminActor } from '../audit/actor.js';
import { SvcNotFoundError } from '../kernel/errors.js';
import { unknownReference } from './errors.js';
import { recordFgaEvent, recordGrantEvent, type FgaDeps } from './deps.js';
import type {
  FgaGroupMemberRecord,
  FgaPage,
  FgaPageRequest,
  FgaReads,
  FgaSubjectListing,
  FgaSubjectRecord,
} from './repository.js';

const ID_PREFIX: Record<FgaSubjectRecord['type'], string> = {
  group: 'fgr',
  service_account: 'fsa',
  agent: 'fag',
};

const LABEL: Record<SvcFgaSubjectType, string> = {
  user: 'user',
  group: 'group',
  service_account: 'service account',
  agent: 'agent',
};

/** The kinds a route or call accepts: groups, or service accounts and agents. */
export type SubjectTypes = readonly FgaSubjectRecord['type'][];

function found(types: SubjectTypes, record: FgaSubjectRecord | undefined): FgaSubjectRecord {
  if (record === undefined || !types.includes(record.type)) {
    throw new SvcNotFoundError(`No ${types.map((type) => LABEL[type]).join(' or ')} has this id.`);
  }
  return record;
}

/**
 * The subjects grants name (docs/reference/fga.md "The model"): users (Svc's accounts), and the groups,
 * service accounts and agents made here. A group has users as members; deleting a group, service
 * account or agent revokes its grants in the same write.
 */
export class FgaSubjects {
  readonly #deps: FgaDeps;

  constructor(deps: FgaDeps) {
    this.#deps = deps;
  }

  list(type: SvcFgaSubjectType | undefined, page: FgaPageRequest): Promise<FgaPage<FgaSubjectListing>> {
    return this.#deps.repository.listSubjects(type, page);
  }

  /** The group, service account or agent `id` names, if it is of one of `types` (else 404). */
  async get(types: SubjectTypes, id: string): Promise<FgaSubjectRecord> {
    return found(types, await this.#deps.repository.findSubject(id));
  }

  async create(
    input: { type: FgaSubjectRecord['type']; name: string; organizationId?: string | null },
    actor?: AdminActor,
  ): Promise<FgaSubjectRecord> {
    const now = this.#deps.clock.now();
    const record: FgaSubjectRecord = {
      id: this.#deps.ids.id(ID_PREFIX[input.type]),
      type: input.type,
      name: input.name,
      organizationId: input.organizationId ?? null,
      createdAt: now,
      updatedAt: now,
    };
    await this.#deps.repository.write(async (tx) => {
      if (record.organizationId !== null && !(await tx.organizationExists(record.organizationId))) {
        throw unknownReference('organizationId', 'No organization has this id.');
      }
      await tx.insertSubject(record);
    });
    await this.#record('created', record, actor);
    return record;
  }

  async rename(types: SubjectTypes, id: string, name: string, actor?: AdminActor): Promise<FgaSubjectRecord> {
    const updated = await this.#deps.repository.write(async (tx) => {
      const current = found(types, await tx.findSubject(id));
      const updatedAt = this.#deps.clock.now();
      await tx.renameSubject(id, name, updatedAt);
      return { ...current, name, updatedAt };
    });
    await this.#record('updated', updated, actor);
    return updated;
  }

  /** Deletes the group, service account or agent with its memberships and grants. */
  async delete(types: SubjectTypes, id: string, actor?: AdminActor): Promise<void> {
    const { deleted, revoked } = await this.#deps.repository.write(async (tx) => {
      const current = found(types, await tx.findSubject(id));
      const grants = await tx.deleteGrants({ subjectId: id });
      await tx.deleteSubject(id);
      return { deleted: current, revoked: grants };
    });
    for (const grant of revoked)
      await recordGrantEvent(this.#deps, 'revoked', grant, actor, `${deleted.type}_deleted`);
    await this.#record('deleted', deleted, actor);
  }

  listMembers(groupId: string, page: FgaPageRequest): Promise<FgaPage<FgaGroupMemberRecord>> {
    return this.#deps.repository.listGroupMembers(groupId, page);
  }

  /** Adds a user to a group; adding a member again changes nothing and answers the membership. */
  async addMember(groupId: string, userId: string, actor?: AdminActor): Promise<FgaGroupMemberRecord> {
    const record: FgaGroupMemberRecord = { groupId, userId, createdAt: this.#deps.clock.now() };
    const { added, group } = await this.#deps.repository.write(async (tx) => {
      const group = found(['group'], await tx.findSubject(groupId));
      if (!(await tx.userExists(userId))) throw new SvcNotFoundError('No user has this id.');
      return { added: await tx.addGroupMember(record), group };
    });
    if (added) {
      await recordFgaEvent(
        this.#deps,
        'group.member_added',
        actor,
        { groupId, userId },
        group.organizationId,
      );
    }
    return record;
  }

  /** Removes a user from a group: 404 when the user was no member. */
  async removeMember(groupId: string, userId: string, actor?: AdminActor): Promise<void> {
    const group = await this.#deps.repository.write(async (tx) => {
      const group = found(['group'], await tx.findSubject(groupId));
      if (!(await tx.removeGroupMember(groupId, userId))) {
        throw new SvcNotFoundError('This user is no member of the group.');
      }
      return group;
    });
    await recordFgaEvent(
      this.#deps,
      'group.member_removed',
      actor,
      { groupId, userId },
      group.organizationId,
    );
  }

  async #record(what: string, record: FgaSubjectRecord, actor: AdminActor | undefined): Promise<void> {
    await recordFgaEvent(
      this.#deps,
      `${record.type}.${what}`,
      actor,
      { id: record.id, name: record.name },
      record.organizationId,
    );
  }
}

/**
 * The subject `id` names, of `type` when given: a user, or a group, service account or agent. Ids are
 * unique across the kinds (each kind has its own prefix), so the kind may be left out.
 */
export async function resolveSubject(
  reads: FgaReads,
  id: string,
  type: SvcFgaSubjectType | undefined,
): Promise<SvcFgaSubjectRef | undefined> {
  if (type === undefined || type === 'user') {
    if (await reads.userExists(id)) return { type: 'user', id };
    if (type === 'user') return undefined;
  }
  const found = await reads.findSubject(id);
  if (found === undefined || (type !== undefined && found.type !== type)) return undefined;
  return { type: found.type, id };
}
