import { ApplicationAccessAdmin } from '../applications/access-admin.js';
import { ApplicationAccess } from '../applications/application-access.js';
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { Db } from '../storage/database.js';
import { applicationAccessRepository } from '../storage/repositories/application-access.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { membershipRepository } from '../storage/repositories/memberships.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import { userRepository } from '../storage/repositories/users.js';

export interface ApplicationAccessWiring {
  /** The run-time checks: sign-ins, approvals and grants. */
  readonly access: ApplicationAccess;
  /** The operator API's operations. */
  readonly admin: ApplicationAccessAdmin;
}

/** Application access over the database: one repository for the checks and the operator API. */
export function wireApplicationAccess(ctx: {
  db: Db;
  audit: AuditLog;
  clock: Clock;
  ids: Ids;
}): ApplicationAccessWiring {
  const repository = applicationAccessRepository(ctx.db);
  const clients = clientRepository(ctx.db);
  const users = userRepository(ctx.db);
  const access = new ApplicationAccess({ repository, clients, users, audit: ctx.audit });
  const admin = new ApplicationAccessAdmin({
    repository,
    access,
    clients,
    users,
    organizations: organizationRepository(ctx.db),
    memberships: membershipRepository(ctx.db),
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  return { access, admin };
}
