import type { FgaGrants } from '../fga/grants.js';
import type { FgaReads } from '../fga/repository.js';
import type { ScimConnectionRepository, ScimGroupRepository } from '../scim/repository.js';
import type { MappingDirectory, MappingGrantStore, MappingResourceTree } from './deps.js';

/** The FGA resource tree and roles, as the rules are checked against a grant boundary. */
export function mappingResourceTree(
  reads: Pick<FgaReads, 'ancestorChain' | 'findDefinition'>,
): MappingResourceTree {
  return {
    ancestorChain: (resourceId, limit) => reads.ancestorChain(resourceId, limit),
    roleExists: async (roleId) => (await reads.findDefinition('role', roleId)) !== undefined,
  };
}

/**
 * The FGA grants a connection's rules manage, through the FGA grants service (one write each, audited,
 * the model's version bumped). The rules grant users only, so a grant of another subject under the same
 * source is not theirs to compare or revoke.
 */
export function mappingGrantStore(
  reads: Pick<FgaReads, 'managedGrants'>,
  grants: Pick<FgaGrants, 'applyManaged'>,
): MappingGrantStore {
  return {
    async held(managedBy, userIds) {
      const found = await reads.managedGrants(managedBy, userIds);
      return found
        .filter((grant) => grant.subject.type === 'user')
        .map((grant) => ({
          id: grant.id,
          userId: grant.subject.id,
          roleId: grant.roleId,
          resourceId: grant.resourceId,
        }));
    },
    async apply(managedBy, changes, reason) {
      await grants.applyManaged(
        managedBy,
        {
          create: changes.create.map((grant) => ({
            subjectId: grant.userId,
            roleId: grant.roleId,
            resourceId: grant.resourceId,
          })),
          revokeIds: changes.revokeIds,
        },
        reason,
      );
    },
  };
}

/** The SCIM directory's connections and who is in which group, as the rules read them. */
export function mappingDirectory(
  connections: Pick<ScimConnectionRepository, 'findById' | 'listByGrantBoundary'>,
  groups: Pick<ScimGroupRepository, 'groupsOfUsers'>,
): MappingDirectory {
  return {
    connection: (connectionId) => connections.findById(connectionId),
    connectionsBoundedBy: (resourceIds) => connections.listByGrantBoundary(resourceIds),
    async groupsOfUsers(connectionId, userIds) {
      const found = await groups.groupsOfUsers(connectionId, userIds);
      return new Map(
        [...found].map(([userId, userGroups]) => [
          userId,
          userGroups.map((group) => ({
            id: group.id,
            displayName: group.displayName,
            externalId: group.externalId,
          })),
        ]),
      );
    },
  };
}
