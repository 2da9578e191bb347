import { BlockList } from 'node:net';
import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import { hostLookup, PublicFetcher } from '../outbound/public-fetch.js';
import { ClientMetadataDocuments } from '../oauth/clients/metadata-documents/client-metadata-documents.js';
import { ClientRegistration } from '../oauth/clients/registration/client-registration.js';
import { oauthEndpointMetadata } from '../oauth/discovery/contributions.js';
import { Discovery } from '../oauth/discovery/discovery.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Db } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { grantableScopesSource } from '../storage/repositories/grantable-scopes.js';

export interface WireDiscoveryContext {
  readonly db: Db;
  readonly config: Pick<
    SvcConfig,
    'issuer' | 'openId' | 'dynamicClientRegistration' | 'clientIdMetadataDocuments' | 'rateLimits' | 'dns'
  >;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly audit: AuditLog;
  readonly rateLimiter: Pick<RateLimiter, 'consume'>;
}

/**
 * What clients learn of the server and how they join it: discovery, and while they are on, registration
 * and metadata documents.
 */
export interface DiscoveryWiring {
  readonly discovery: Discovery;
  /** POST /register's service; null while dynamic client registration is off. */
  readonly registration: ClientRegistration | null;
  /** Fetches the documents of URL client_ids where clients enter; null while CIMD is off. */
  readonly clientDocuments: ClientMetadataDocuments | null;
}

export function wireDiscovery(ctx: WireDiscoveryContext): DiscoveryWiring {
  const { config } = ctx;
  const dcr = config.dynamicClientRegistration;
  const cimd = config.clientIdMetadataDocuments;
  const discovery = new Discovery({
    issuer: config.issuer,
    openIdEnabled: config.openId.enabled,
    scopes: grantableScopesSource(ctx.db),
    // What self-described clients may be granted is the ceiling, not whatever each one asked for.
    registrationScopes: [
      ...(dcr.enabled ? dcr.allowedScopes : []),
      ...(cimd.enabled ? cimd.allowedScopes : []),
    ],
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
  const clientDocuments = cimd.enabled
    ? new ClientMetadataDocuments({
        clients: clientRepository(ctx.db),
        // Documents come from the internet only (or a loopback host the operator opted in): no private network.
        fetcher: new PublicFetcher({
          lookup: hostLookup(config.dns),
          timeoutMs: cimd.timeoutMs,
          caCertificates: cimd.caCertificates,
          allowedNetworks: new BlockList(),
        }),
        rateLimiter: ctx.rateLimiter,
        limit: config.rateLimits.clientMetadataFetch,
        config: cimd,
        loopback: cimd.allowLoopback,
        audit: ctx.audit,
        clock: ctx.clock,
        ids: ctx.ids,
      })
    : null;
  return { discovery, registration, clientDocuments };
}
