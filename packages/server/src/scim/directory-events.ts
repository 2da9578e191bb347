/** The connection a group change happened in. */
export interface ScimGroupChangeScope {
  readonly connectionId: string;
  readonly organizationId: string;
}

/**
 * A SCIM group as the mapping rules match it (docs/reference/scim.md "Mapping rules": `match` by displayName,
 * externalId).
 */
export interface ScimGroupRef {
  readonly id: string;
  readonly displayName: string;
  readonly externalId: string | null;
}

/**
 * One change of a group's membership, published before the SCIM response is sent: a subscriber that
 * revokes grants on `removedUserIds` has done so when the IdP gets its answer (docs/reference/scim.md
 * "Directory events"). `deleted` is true when the group itself was deleted (every member removed).
 */
export interface ScimGroupMembershipChange extends ScimGroupChangeScope {
  readonly group: ScimGroupRef;
  readonly addedUserIds: readonly string[];
  readonly removedUserIds: readonly string[];
  /** The group's members after the change (none when it was deleted). */
  readonly memberIds: readonly string[];
  /**
   * True when the IdP wrote the group itself (POST, PUT or PATCH), even with no member changed: a push
   * or resynchronization after which the mapping rules grant again (docs/reference/scim.md "Grants"). False
   * for a deletion and for the removals a user's deprovisioning makes.
   */
  readonly pushed: boolean;
  readonly deleted: boolean;
}

/** A connection's change that ends access its mappings gave (docs/reference/scim.md "Connections"). */
export interface ScimConnectionChange extends ScimGroupChangeScope {
  /** `disabled`: every managed grant goes; `grant_boundary_changed`: those outside the new boundary go. */
  readonly change: 'disabled' | 'grant_boundary_changed';
  readonly grantBoundaryResourceId: string | null;
  readonly previousGrantBoundaryResourceId: string | null;
}

/**
 * What the group mapping rules implement to follow SCIM groups and connections; both are optional so
 * that a subscriber takes only what it needs.
 */
export interface ScimDirectorySubscriber {
  membershipChanged?(change: ScimGroupMembershipChange): Promise<void>;
  connectionChanged?(change: ScimConnectionChange): Promise<void>;
}

/**
 * The subscribers of directory changes. Each is awaited in turn, before the answer, so a failing
 * subscriber fails the request (the IdP retries) rather than leaving access that should have gone.
 */
export class ScimDirectoryEvents {
  readonly #subscribers: ScimDirectorySubscriber[] = [];

  subscribe(subscriber: ScimDirectorySubscriber): void {
    this.#subscribers.push(subscriber);
  }

  async membershipChanged(change: ScimGroupMembershipChange): Promise<void> {
    const changed = change.addedUserIds.length > 0 || change.removedUserIds.length > 0 || change.deleted;
    if (!changed && !change.pushed) return;
    for (const subscriber of this.#subscribers) await subscriber.membershipChanged?.(change);
  }

  async connectionChanged(change: ScimConnectionChange): Promise<void> {
    for (const subscriber of this.#subscribers) await subscriber.connectionChanged?.(change);
  }
}
