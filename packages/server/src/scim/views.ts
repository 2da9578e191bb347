import type { SvcScimSyncEvent } from '@svc/contract';
import type { ScimSyncEventRecord } from './repository.js';

/** A sync event on the wire: times as ISO strings. */
export function toSvcScimSyncEvent(event: ScimSyncEventRecord): SvcScimSyncEvent {
  return {
    id: event.id,
    connectionId: event.connectionId,
    kind: event.kind,
    outcome: event.outcome,
    resourceType: event.resourceType,
    resourceId: event.resourceId,
    message: event.message,
    data: { ...event.data },
    occurredAt: new Date(event.createdAt).toISOString(),
  };
}
