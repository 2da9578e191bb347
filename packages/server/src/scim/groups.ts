import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { ScimDirectoryEvents } from './directory-events.js';
import { ScimError, scimNotFound } from './errors.js';
import { parseEqFilter } from './filter.js';
import { parseGroupAttributes, type ScimGroupAttributes } from './group-resource.js';
import { applyPatch, parsePatchBody } from './patch.js';
import type {
  ScimConnectionRecord,
  ScimGroupRecord,
  ScimGroupRepository,
  ScimPage,
  ScimPageQuery,
  ScimUserRepository,
} from './repository.js';
import { groupAttributesJson } from './representation.js';
import { couldBeResourceId } from './resource-id.js';
import { EXTENSION_SCHEMAS } from './schema-names.js';
import type { ScimSyncEvents } from './sync-events.js';

export interface ScimGroupsDeps {
  readonly groups: ScimGroupRepository;
  readonly users: ScimUserRepository;
  readonly events: ScimDirectoryEvents;
  readonly syncEvents: ScimSyncEvents;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** A group with its member user ids. */
export interface ScimGroupWithMembers {
  readonly group: ScimGroupRecord;
  readonly memberIds: readonly string[];
}

const FILTERABLE = ['id', 'displayName', 'externalId'] as const;

/**
 * SCIM Groups of one connection (docs/reference/scim.md "The service provider"): stored per connection with
 * their members, who must be users of the same connection (400 `invalidValue` otherwise). displayName and
 * externalId are unique per connection (409 `uniqueness`). Every membership change is published to the
 * directory subscribers (the group mapping rules) before the answer, so a removal has ended the access
 * it gave when the IdP gets its response.
 */
export class ScimGroups {
  readonly #deps: ScimGroupsDeps;

  constructor(deps: ScimGroupsDeps) {
    this.#deps = deps;
  }

  async create(connection: ScimConnectionRecord, body: unknown): Promise<ScimGroupWithMembers> {
    const attributes = parseGroupAttributes(body);
    const memberIds = await this.#members(connection, attributes);
    const now = this.#deps.clock.now();
    const group: ScimGroupRecord = {
      id: this.#deps.ids.id('sgr'),
      connectionId: connection.id,
      displayName: attributes.displayName,
      externalId: attributes.externalId ?? null,
      createdAt: now,
      updatedAt: now,
    };
    if ((await this.#deps.groups.insert(group, memberIds)) === 'taken') {
      throw new ScimError(
        409,
        `A group named '${group.displayName}' (or with its externalId) exists.`,
        'uniqueness',
      );
    }
    await this.#deps.syncEvents.record({
      connectionId: connection.id,
      kind: 'scim.group.created',
      resourceType: 'Group',
      resourceId: group.id,
      data: { members: memberIds.length },
    });
    await this.#publish(connection, group, { removed: [], added: memberIds, members: memberIds });
    return { group, memberIds };
  }

  async get(connection: ScimConnectionRecord, id: string): Promise<ScimGroupWithMembers> {
    const group = couldBeResourceId(id) ? await this.#deps.groups.find(connection.id, id) : undefined;
    if (group === undefined) throw scimNotFound('Group', id);
    const memberIds = (await this.#deps.groups.members([id])).get(id) ?? [];
    return { group, memberIds };
  }

  async list(
    connection: ScimConnectionRecord,
    filter: string | undefined,
    page: ScimPageQuery,
  ): Promise<ScimPage<ScimGroupWithMembers>> {
    const found = await this.#deps.groups.list(connection.id, parseEqFilter(filter, FILTERABLE), page);
    const members = await this.#deps.groups.members(found.resources.map((group) => group.id));
    return {
      totalResults: found.totalResults,
      resources: found.resources.map((group) => ({ group, memberIds: members.get(group.id) ?? [] })),
    };
  }

  async replace(connection: ScimConnectionRecord, id: string, body: unknown): Promise<ScimGroupWithMembers> {
    const current = await this.get(connection, id);
    return this.#write(connection, current, parseGroupAttributes(body));
  }

  async patch(connection: ScimConnectionRecord, id: string, body: unknown): Promise<ScimGroupWithMembers> {
    const operations = parsePatchBody(body);
    const current = await this.get(connection, id);
    const patched = applyPatch(
      groupAttributesJson(current.group, current.memberIds),
      operations,
      EXTENSION_SCHEMAS.Group,
    );
    return this.#write(connection, current, parseGroupAttributes(patched));
  }

  async delete(connection: ScimConnectionRecord, id: string): Promise<void> {
    const current = await this.get(connection, id);
    await this.#deps.groups.delete(connection.id, id);
    await this.#deps.syncEvents.record({
      connectionId: connection.id,
      kind: 'scim.group.deleted',
      resourceType: 'Group',
      resourceId: id,
    });
    await this.#publish(connection, current.group, {
      removed: current.memberIds,
      added: [],
      members: [],
      deleted: true,
    });
  }

  async #write(
    connection: ScimConnectionRecord,
    current: ScimGroupWithMembers,
    attributes: ScimGroupAttributes,
  ): Promise<ScimGroupWithMembers> {
    const memberIds = await this.#members(connection, attributes);
    const replaced = await this.#deps.groups.replace(
      {
        ...current.group,
        displayName: attributes.displayName,
        externalId: attributes.externalId ?? null,
        updatedAt: this.#deps.clock.now(),
      },
      memberIds,
    );
    if (replaced === 'taken') {
      throw new ScimError(
        409,
        `A group named '${attributes.displayName}' (or with its externalId) exists.`,
        'uniqueness',
      );
    }
    if (replaced === undefined) throw scimNotFound('Group', current.group.id);
    const before = new Set(current.memberIds);
    const after = new Set(memberIds);
    const added = memberIds.filter((member) => !before.has(member));
    const removed = current.memberIds.filter((member) => !after.has(member));
    await this.#deps.syncEvents.record({
      connectionId: connection.id,
      kind: added.length + removed.length > 0 ? 'scim.group.members_changed' : 'scim.group.updated',
      resourceType: 'Group',
      resourceId: replaced.id,
      data: { added: added.length, removed: removed.length },
    });
    await this.#publish(connection, replaced, { removed, added, members: memberIds });
    return { group: replaced, memberIds };
  }

  /** The member ids, deduplicated; each must be a user of this connection. */
  async #members(connection: ScimConnectionRecord, attributes: ScimGroupAttributes): Promise<string[]> {
    const ids = [...new Set((attributes.members ?? []).map((member) => member.value))];
    const known = await this.#deps.users.existing(connection.id, ids);
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) {
      throw new ScimError(400, `The member '${unknown}' is not a user of this connection.`, 'invalidValue');
    }
    return ids;
  }

  /** Publishes a push of the group (POST, PUT, PATCH), or its deletion. */
  #publish(
    connection: ScimConnectionRecord,
    group: ScimGroupRecord,
    members: {
      readonly removed: readonly string[];
      readonly added: readonly string[];
      readonly members: readonly string[];
      readonly deleted?: true;
    },
  ): Promise<void> {
    const deleted = members.deleted === true;
    return this.#deps.events.membershipChanged({
      connectionId: connection.id,
      organizationId: connection.organizationId,
      group: { id: group.id, displayName: group.displayName, externalId: group.externalId },
      addedUserIds: members.added,
      removedUserIds: members.removed,
      memberIds: members.members,
      pushed: !deleted,
      deleted,
    });
  }
}
