import type { ScimMappingBoundaryStatus } from '@svc/contract';
import type { AuditLog } from '../audit/audit-log.js';
import type { FgaResourceMove, FgaResourceMoveSubscriber } from '../fga/resource-moves.js';
import type {
  ScimConnectionChange,
  ScimDirectorySubscriber,
  ScimGroupMembershipChange,
  ScimGroupRef,
} from '../scim/directory-events.js';
import type { ScimConnectionRecord } from '../scim/repository.js';
import type { ScimSyncEventKind, ScimSyncEvents } from '../scim/sync-events.js';
import { boundaryStatus } from './boundary.js';
import {
  managedByConnection,
  type MappingDirectory,
  type MappingGrantStore,
  type MappingResourceTree,
} from './deps.js';
import type { ScimMappingRecord, ScimMappingRepository } from './repository.js';
import { grantKey, ruleMatches, wantedGrants } from './wanted-grants.js';

export interface ScimMappingGrantsDeps {
  readonly rules: ScimMappingRepository;
  readonly directory: MappingDirectory;
  readonly tree: MappingResourceTree;
  readonly grants: MappingGrantStore;
  readonly syncEvents: ScimSyncEvents;
  readonly audit: AuditLog;
}

/** Why an enabled rule grants nothing now. */
type Unusable = Exclude<ScimMappingBoundaryStatus, 'configured'> | 'role_missing';

interface EvaluatedRules {
  readonly usable: ScimMappingRecord[];
  readonly unusable: { readonly rule: ScimMappingRecord; readonly problem: Unusable }[];
}

/**
 * Passes of read, compare and write per reconciliation. A pass after a write reads again, so a change
 * another request committed meanwhile (a member removed while this push granted) is corrected before
 * the answer; a pass that finds nothing to change ends it.
 */
const MAX_PASSES = 3;

/**
 * The grants of the mapping rules (docs/reference/scim.md "Grants"). A user holds a rule's role on its
 * resource, managed by `scim:<connectionId>`, while a group of the connection the user is in matches an
 * enabled rule whose resource is inside the connection's grant boundary. Grants are made only when the IdP
 * pushes a group (POST, PUT, PATCH): so a re-enabled rule or connection gives nothing back until the next
 * push (docs/reference/scim.md "Grants"). Everything else only revokes, at once and before the answer: a
 * member removed, a group deleted, a user deprovisioned (in that connection's organization only), a rule
 * disabled, updated or deleted, a boundary changed, the connection disabled, an FGA resource moved out of the
 * boundary. A push of a group matched by a rule that cannot grant records a failed sync event and an audit
 * event (`scim.grant.outside_boundary`, `scim.grant.boundary_missing`); so does a move that revoked grants.
 */
export class ScimMappingGrants implements ScimDirectorySubscriber, FgaResourceMoveSubscriber {
  readonly #deps: ScimMappingGrantsDeps;

  constructor(deps: ScimMappingGrantsDeps) {
    this.#deps = deps;
  }

  async membershipChanged(change: ScimGroupMembershipChange): Promise<void> {
    const userIds = change.pushed
      ? [...new Set([...change.memberIds, ...change.removedUserIds])]
      : [...change.removedUserIds];
    await this.#reconcile(change.connectionId, userIds, {
      pushedGroup: change.pushed ? change.group : null,
      reason: change.pushed ? 'scim_group_pushed' : 'scim_group_members_removed',
    });
  }

  async connectionChanged(change: ScimConnectionChange): Promise<void> {
    const managedBy = managedByConnection(change.connectionId);
    if (change.change === 'disabled') {
      const held = await this.#deps.grants.held(managedBy);
      if (held.length === 0) return;
      const revokeIds = held.map((grant) => grant.id);
      await this.#deps.grants.apply(managedBy, { create: [], revokeIds }, 'scim_connection_disabled');
      return;
    }
    await this.revokeUnjustified(change.connectionId, 'scim_grant_boundary_changed');
  }

  /**
   * An operator moved an FGA resource: a boundary that was above it and is not any more has the
   * resource's subtree outside it now, so each connection with such a boundary loses the grants there
   * (its rules re-checked, as for a boundary change). A move inside a boundary, or of the boundary
   * itself, leaves none of them.
   */
  async resourceMoved(move: FgaResourceMove): Promise<void> {
    const left = move.previousAncestorIds.filter((id) => !move.ancestorIds.includes(id));
    for (const connection of await this.#deps.directory.connectionsBoundedBy(left)) {
      const revoked = await this.revokeUnjustified(connection.id, 'fga_resource_moved');
      if (revoked > 0) await this.#recordMovedOut(connection, move.resourceId, revoked);
    }
  }

  /**
   * Revokes every grant of the connection that its rules no longer justify (a rule disabled, changed or
   * deleted, a boundary or a resource moved), creating none; answers how many it revoked.
   */
  async revokeUnjustified(connectionId: string, reason: string): Promise<number> {
    const held = await this.#deps.grants.held(managedByConnection(connectionId));
    const holders = [...new Set(held.map((grant) => grant.userId))];
    return this.#reconcile(connectionId, holders, { pushedGroup: null, reason });
  }

  /** Where an enabled rule stands now: usable, or why not. */
  async #evaluate(connection: ScimConnectionRecord): Promise<EvaluatedRules> {
    const { rules, tree } = this.#deps;
    const usable: ScimMappingRecord[] = [];
    const unusable: EvaluatedRules['unusable'][number][] = [];
    for (const rule of await rules.enabledForConnection(connection.id)) {
      const status = await boundaryStatus(connection.grantBoundaryResourceId, rule.resourceId, tree);
      if (status !== 'configured') unusable.push({ rule, problem: status });
      else if (!(await tree.roleExists(rule.roleId))) unusable.push({ rule, problem: 'role_missing' });
      else usable.push(rule);
    }
    return { usable, unusable };
  }

  /**
   * Makes the users' grants of the connection what its usable rules give them: revokes the grants no
   * rule justifies; on a push, also creates those the pushed group justifies. Answers how many it revoked.
   */
  async #reconcile(
    connectionId: string,
    userIds: readonly string[],
    options: { readonly pushedGroup: ScimGroupRef | null; readonly reason: string },
  ): Promise<number> {
    const { directory, grants } = this.#deps;
    const managedBy = managedByConnection(connectionId);
    let revoked = 0;
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const connection = await directory.connection(connectionId);
      if (connection === undefined) return revoked;
      const rules = await this.#evaluate(connection);
      if (pass === 0 && options.pushedGroup !== null) {
        await this.#recordUnusable(connection, options.pushedGroup, rules.unusable);
      }
      if (userIds.length === 0) return revoked;
      const wanted = wantedGrants(rules.usable, await directory.groupsOfUsers(connectionId, userIds));
      const held = await grants.held(managedBy, userIds);
      const heldKeys = new Set(held.map(grantKey));
      const revokeIds = held.filter((grant) => !wanted.has(grantKey(grant))).map((grant) => grant.id);
      const pushedGroupId = options.pushedGroup?.id;
      const create =
        pushedGroupId === undefined
          ? []
          : [...wanted.values()]
              .filter((entry) => entry.groupIds.has(pushedGroupId) && !heldKeys.has(grantKey(entry.grant)))
              .map((entry) => entry.grant);
      if (revokeIds.length === 0 && create.length === 0) return revoked;
      await grants.apply(managedBy, { create, revokeIds }, options.reason);
      revoked += revokeIds.length;
    }
    return revoked;
  }

  /** A move took grants out of the boundary: a failed sync event and an audit event say so. */
  async #recordMovedOut(
    connection: ScimConnectionRecord,
    resourceId: string,
    revoked: number,
  ): Promise<void> {
    const kind = 'scim.grant.outside_boundary';
    const data = {
      connectionId: connection.id,
      resourceId,
      grantBoundaryResourceId: connection.grantBoundaryResourceId,
      problem: 'outside_boundary',
      cause: 'resource_moved',
      revokedGrants: revoked,
    };
    await this.#recordFailure(connection, kind, data, {
      message: `An operator moved FGA resource ${resourceId} out of the grant boundary: ${revoked} grants revoked.`,
    });
  }

  /** A failed sync event and an audit event of the same kind and data. */
  async #recordFailure(
    connection: ScimConnectionRecord,
    kind: ScimSyncEventKind,
    data: Readonly<Record<string, unknown>>,
    event: { readonly message: string; readonly resourceType?: 'Group'; readonly resourceId?: string },
  ): Promise<void> {
    await this.#deps.syncEvents.record({
      connectionId: connection.id,
      kind,
      outcome: 'failed',
      ...event,
      data,
    });
    await this.#deps.audit.record({
      kind,
      actorType: 'system',
      organizationId: connection.organizationId,
      data,
    });
  }

  /**
   * docs/reference/scim.md "Grants": a pushed group that resolves outside the boundary, or a connection
   * without a usable one, still succeeds for the IdP; a failed sync event and an audit event of the same kind
   * say why.
   */
  async #recordUnusable(
    connection: ScimConnectionRecord,
    group: ScimGroupRef,
    unusable: EvaluatedRules['unusable'],
  ): Promise<void> {
    for (const { rule, problem } of unusable) {
      if (!ruleMatches(rule, group)) continue;
      const kind =
        problem === 'missing' || problem === 'not_found'
          ? 'scim.grant.boundary_missing'
          : problem === 'role_missing'
            ? 'scim.grant.role_missing'
            : 'scim.grant.outside_boundary';
      const data = {
        connectionId: connection.id,
        mappingId: rule.id,
        groupId: group.id,
        roleId: rule.roleId,
        resourceId: rule.resourceId,
        grantBoundaryResourceId: connection.grantBoundaryResourceId,
        problem,
      };
      await this.#recordFailure(connection, kind, data, {
        resourceType: 'Group',
        resourceId: group.id,
        message: MESSAGES[problem],
      });
    }
  }
}

const MESSAGES: Record<Unusable, string> = {
  missing: 'The connection has no grant boundary: the mapping rule granted nothing.',
  not_found: 'The grant boundary names no FGA resource: the mapping rule granted nothing.',
  outside_boundary:
    'The mapping rule’s resource is outside the grant boundary (or gone): it granted nothing.',
  hierarchy_invalid: 'The mapping rule’s resource has an ancestor cycle or is too deep: it granted nothing.',
  role_missing: 'The mapping rule’s role no longer exists: it granted nothing.',
};
