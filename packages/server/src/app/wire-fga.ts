import type { AuditLog } from '../audit/audit-log.js';
import { FgaAccessCheck } from '../fga/access-check.js';
import { createFgaAdmin, type FgaAdmin } from '../fga/fga-admin.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { Db } from '../storage/database.js';
import { fgaRepository } from '../storage/repositories/fga.js';
import { SvcFgaService } from './facades/svc-fga-service.js';

export interface FgaWiring {
  /** The operations of the operator API (and of the SCIM mappings, which manage grants of their own). */
  readonly admin: FgaAdmin;
  readonly facade: SvcFgaService;
}

/** Fine-grained authorization: one repository, one check (with this node's cache) for every caller. */
export function wireFga(ctx: { db: Db; audit: AuditLog; clock: Clock; ids: Ids }): FgaWiring {
  const repository = fgaRepository(ctx.db);
  const admin = createFgaAdmin(
    { repository, audit: ctx.audit, clock: ctx.clock, ids: ctx.ids },
    new FgaAccessCheck(repository),
  );
  return { admin, facade: new SvcFgaService(admin) };
}
