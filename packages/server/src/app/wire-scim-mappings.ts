import type { AuditLog } from '../audit/audit-log.js';
import type { FgaAdmin } from '../fga/fga-admin.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { mappingDirectory, mappingGrantStore, mappingResourceTree } from '../scim-mappings/ports.js';
import { ScimMappingAdmin } from '../scim-mappings/mapping-admin.js';
import { ScimMappingGrants } from '../scim-mappings/mapping-grants.js';
import type { Db } from '../storage/database.js';
import { fgaReads } from '../storage/repositories/fga-reads.js';
import { scimConnectionRepository } from '../storage/repositories/scim-connections.js';
import { scimGroupRepository } from '../storage/repositories/scim-groups.js';
import { scimMappingRepository } from '../storage/repositories/scim-mappings.js';
import type { ScimWiring } from './wire-scim.js';

export interface ScimMappingsWiring {
  readonly admin: ScimMappingAdmin;
  readonly grants: ScimMappingGrants;
}

/**
 * The SCIM group mapping rules between the SCIM directory and the FGA model: the rules' grants are
 * made and revoked through the FGA grants service (one write each, audited, the model's version
 * bumped), and they follow the directory through `scim.events`, before each SCIM answer, and the FGA
 * tree through `fga.resourceMoves`, before each move's answer.
 */
export function wireScimMappings(ctx: {
  readonly db: Db;
  readonly fga: FgaAdmin;
  readonly scim: Pick<ScimWiring, 'events' | 'syncEvents'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}): ScimMappingsWiring {
  const reads = fgaReads(ctx.db);
  const rules = scimMappingRepository(ctx.db);
  const tree = mappingResourceTree(reads);
  const directory = mappingDirectory(scimConnectionRepository(ctx.db), scimGroupRepository(ctx.db));
  const grants = new ScimMappingGrants({
    rules,
    directory,
    tree,
    grants: mappingGrantStore(reads, ctx.fga.grants),
    syncEvents: ctx.scim.syncEvents,
    audit: ctx.audit,
  });
  ctx.scim.events.subscribe(grants);
  ctx.fga.resourceMoves.subscribe(grants);
  const admin = new ScimMappingAdmin({
    rules,
    directory,
    tree,
    grants,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  return { admin, grants };
}
