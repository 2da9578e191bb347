import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { ClientRegistration } from '../oauth/clients/registration/client-registration.js';
import { oauthEndpointMetadata } from '../oauth/discovery/contributions.js';
import { Discovery } from '../oauth/discovery/discovery.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Db } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { grantableScopesSource } from '../storage/repositories/grantable-scopes.js';

export interface WireDiscoveryContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'issuer' | 'openId' | 'dynamicClientRegistration' | 'rateLimits'>;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
}

/** What clients learn of the server and how they join it: discovery, and registration while it is on. */
export interface DiscoveryWiring {
  readonly discovery: Discovery;
  /** POST /register's service; null while dynamic client registration is off. */
  readonly registration: ClientRegistration | null;
}

export function wireDiscovery(ctx: WireDiscoveryContext): DiscoveryWiring {
  const { config } = ctx;
  const dcr = config.dynamicClientRegistration;
  const discovery = new Discovery({
    issuer: config.issuer,
    openIdEnabled: config.openId.enabled,
    scopes: grantableScopesSource(ctx.db),
    // What registered clients may be granted is the ceiling, not whatever each registration asked for.
    registrationScopes: dcr.enabled ? dcr.allowedScopes : [],
    contributions: [{ jwks_uri: `${config.issuer}/.well-known/jwks.json` }, ...oauthEndpointMetadata(config)],
    clock: ctx.clock,
  });
  const registration = dcr.enabled
    ? new ClientRegistration({
        clients: clientRepository(ctx.db),
        rateLimiter: ctx.rateLimiter,
        limit: config.rateLimits.clientRegistration,
        policy: dcr,
        audience: dcr.audience,
        audit: ctx.audit,
        clock: ctx.clock,
        ids: ctx.ids,
      })
    : null;
  return { discovery, registration };
}
