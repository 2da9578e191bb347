import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { ScimSyncEventRepository, ScimSyncOutcome } from './repository.js';

/**
 * The sync event kinds Svc records (docs/reference/scim.md "Sync events": SCIM activity and reconciliation
 * errors are stored as sync events). The `scim.grant.*` kinds are recorded by the group mapping rules, as
 * failed events, beside the audit events of the same name: the two boundary kinds (docs/reference/events.md),
 * and `role_missing` for a rule whose FGA role was deleted. `scim.user.link_refused` is a create refused
 * because the address's existing account is unverified and held by others (failed).
 */
export type ScimSyncEventKind =
  | 'scim.user.created'
  | 'scim.user.link_refused'
  | 'scim.user.updated'
  | 'scim.user.deprovisioned'
  | 'scim.user.reactivated'
  | 'scim.user.deleted'
  | 'scim.group.created'
  | 'scim.group.updated'
  | 'scim.group.deleted'
  | 'scim.group.members_changed'
  | 'scim.grant.outside_boundary'
  | 'scim.grant.boundary_missing'
  | 'scim.grant.role_missing';

export interface ScimSyncEventInput {
  readonly connectionId: string;
  readonly kind: ScimSyncEventKind;
  readonly outcome?: ScimSyncOutcome;
  readonly resourceType?: 'User' | 'Group';
  readonly resourceId?: string;
  readonly message?: string;
  /** Ids and counts; never a token or a whole resource. */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** Records sync events with the time and an id. */
export class ScimSyncEvents {
  readonly #deps: { repository: ScimSyncEventRepository; clock: Clock; ids: Ids };

  constructor(deps: { repository: ScimSyncEventRepository; clock: Clock; ids: Ids }) {
    this.#deps = deps;
  }

  record(event: ScimSyncEventInput): Promise<void> {
    const { repository, clock, ids } = this.#deps;
    return repository.insert({
      id: ids.id('sse'),
      connectionId: event.connectionId,
      kind: event.kind,
      outcome: event.outcome ?? 'succeeded',
      resourceType: event.resourceType ?? null,
      resourceId: event.resourceId ?? null,
      message: event.message ?? null,
      data: event.data ?? {},
      createdAt: clock.now(),
    });
  }
}
