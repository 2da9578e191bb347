import type { ScimGroupRef } from '../scim/directory-events.js';
import type { ScimConnectionRecord } from '../scim/repository.js';

/**
 * The ports the mapping rules reach other capabilities through; `scim-mappings/ports.ts` implements
 * them with the FGA model's and the SCIM directory's own services and reads.
 */

/** The FGA resource tree and roles, read to check rules against the grant boundary. */
export interface MappingResourceTree {
  /**
   * The resource and its ancestors, itself first, at most `limit` of them (a longer chain, or a cycle, is
   * cut there). Empty when there is no such resource.
   */
  ancestorChain(resourceId: string, limit: number): Promise<string[]>;
  roleExists(roleId: string): Promise<boolean>;
}

/** A grant a mapping rule made, as the rules compare them. */
export interface HeldGrant {
  readonly id: string;
  readonly userId: string;
  readonly roleId: string;
  readonly resourceId: string;
}

/** A grant a mapping rule wants a user to hold. */
export interface WantedGrant {
  readonly userId: string;
  readonly roleId: string;
  readonly resourceId: string;
}

/** The FGA grants a connection manages (`managedBy: scim:<connectionId>`). */
export interface MappingGrantStore {
  /** Every grant `managedBy` holds, or those of the given users. */
  held(managedBy: string, userIds?: readonly string[]): Promise<HeldGrant[]>;
  /** Revokes and creates in one write of the FGA model; `reason` goes into each grant's audit event. */
  apply(
    managedBy: string,
    changes: { readonly create: readonly WantedGrant[]; readonly revokeIds: readonly string[] },
    reason: string,
  ): Promise<void>;
}

/** The SCIM directory: connections and who is in which group. */
export interface MappingDirectory {
  connection(connectionId: string): Promise<ScimConnectionRecord | undefined>;
  /** The connections whose grant boundary is one of these FGA resources. */
  connectionsBoundedBy(resourceIds: readonly string[]): Promise<ScimConnectionRecord[]>;
  /** The connection's groups of each user (every user given is a key). */
  groupsOfUsers(connectionId: string, userIds: readonly string[]): Promise<Map<string, ScimGroupRef[]>>;
}

/** The source name of the FGA grants a SCIM connection's rules make (docs/reference/fga.md "Grants"). */
export function managedByConnection(connectionId: string): string {
  return `scim:${connectionId}`;
}
