import type { AuditLog } from '../audit/audit-log.js';
import { actorFields, type AdminActor } from '../audit/actor.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { FgaGrantRecord, FgaRepository } from './repository.js';

/** What the FGA services take: the model's storage, time, randomness and the audit log. */
export interface FgaDeps {
  readonly repository: FgaRepository;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Records `fga.<what>` with who did it: the operator of an HTTP request, or `system` in process. */
export async function recordFgaEvent(
  deps: FgaDeps,
  what: string,
  actor: AdminActor | undefined,
  data: Readonly<Record<string, unknown>>,
  organizationId?: string | null,
): Promise<void> {
  await deps.audit.record({
    kind: `fga.${what}`,
    ...actorFields(actor),
    ...(organizationId === null || organizationId === undefined ? {} : { organizationId }),
    data,
  });
}

/** `fga.grant.<what>` for one grant; `reason` says why a revocation happened when it was not asked for. */
export async function recordGrantEvent(
  deps: FgaDeps,
  what: 'created' | 'revoked',
  grant: FgaGrantRecord,
  actor: AdminActor | undefined,
  reason?: string,
): Promise<void> {
  await recordFgaEvent(deps, `grant.${what}`, actor, {
    id: grant.id,
    subject: grant.subject,
    roleId: grant.roleId,
    resourceId: grant.resourceId,
    managedBy: grant.managedBy,
    ...(reason === undefined ? {} : { reason }),
  });
}
