import type { AuditEventInput } from './audit-log.js';

/**
 * Who performs an admin operation, for the audit trail. The HTTP routes pass the operator and the
 * client address; in-process callers (the host application, the CLI, the demo seed) may pass nothing,
 * which records the `system` actor.
 */
export interface AdminActor {
  readonly actorType?: 'operator' | 'system';
  readonly actorId?: string;
  readonly ipAddress?: string;
}

/** The actor part of an audit event, without undefined properties (exactOptionalPropertyTypes). */
export function actorFields(
  actor: AdminActor | undefined,
): Pick<AuditEventInput, 'actorType' | 'actorId' | 'ipAddress'> {
  return {
    actorType: actor?.actorType ?? 'system',
    ...(actor?.actorId === undefined ? {} : { actorId: actor.actorId }),
    ...(actor?.ipAddress === undefined ? {} : { ipAddress: actor.ipAddress }),
  };
}
