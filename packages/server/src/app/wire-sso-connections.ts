import type { AuditLog } from '../audit/audit-log.js';
import { SamlAuthnRequests } from '../federation/saml/authn-requests.js';
import { SsoConnectionAdmin } from '../federation/saml/connection-admin.js';
import { SamlServiceProvider } from '../federation/saml/service-provider.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { Db } from '../storage/database.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import {
  samlAuthnRequestRepository,
  samlUsedAssertionRepository,
} from '../storage/repositories/saml-requests.js';
import { ssoConnectionRepository } from '../storage/repositories/sso-connections.js';

export interface WireSsoConnectionsContext {
  readonly db: Db;
  /** PublicOrigin + auth base: a new connection's SP entity id and ACS URL hang under it. */
  readonly issuer: string;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** SAML SSO connections: the operators' service, and Svc as the service provider of each connection. */
export interface SsoConnectionsWiring {
  readonly admin: SsoConnectionAdmin;
  readonly serviceProvider: SamlServiceProvider;
}

export function wireSsoConnections(ctx: WireSsoConnectionsContext): SsoConnectionsWiring {
  const repository = ssoConnectionRepository(ctx.db);
  const organizations = organizationRepository(ctx.db);
  return {
    admin: new SsoConnectionAdmin({
      repository,
      organizationExists: async (id) => (await organizations.findById(id)) !== undefined,
      issuer: ctx.issuer,
      audit: ctx.audit,
      clock: ctx.clock,
      ids: ctx.ids,
    }),
    serviceProvider: new SamlServiceProvider({
      connections: repository,
      requests: new SamlAuthnRequests({ repository: samlAuthnRequestRepository(ctx.db), clock: ctx.clock }),
      usedAssertions: samlUsedAssertionRepository(ctx.db),
      clock: ctx.clock,
      ids: ctx.ids,
    }),
  };
}
