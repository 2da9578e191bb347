import type { AuditLog } from '../audit/audit-log.js';
import type { SvcConfig } from '../config/resolve.js';
import { deriveHostedKey } from '../http/antiforgery.js';
import { SessionCsrf } from '../kernel/session-csrf.js';
import { PortalSetup } from '../federation/sso-portal/portal-setup.js';
import type { DomainClaims } from '../organizations/domains/domain-claims.js';
import type { SsoConnectionsWiring } from './wire-sso-connections.js';
import { SsoPortalSessions } from '../federation/sso-portal/portal-sessions.js';
import type { SamlContinuationHandler } from '../federation/saml/continuations.js';
import { PortalTestHandler } from '../federation/sso-portal/portal-test-continuation.js';
import { SsoSetupLinks } from '../federation/sso-portal/setup-links.js';
import type { Clock } from '../kernel/clock.js';
import type { Ids } from '../kernel/ids.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { MetadataFetcher } from '../federation/saml/metadata-fetch.js';
import { SsoMetadataUrlImport } from '../federation/saml/metadata-url-import.js';
import { hostLookup, PublicFetcher } from '../outbound/public-fetch.js';
import type { HandedOutTokenLimit } from '../ratelimit/handed-out-tokens.js';
import type { Db } from '../storage/database.js';
import { organizationRepository } from '../storage/repositories/organizations.js';
import { ssoPortalRepository } from '../storage/repositories/sso-portal.js';

/**
 * Where the portal lives, under the dashboard base: `/svc/admin/auth/sso-portal/…`
 * (docs/reference/federation.md "The SSO setup portal").
 */
export function ssoPortalBase(config: Pick<SvcConfig, 'dashboardBase'>): string {
  return `${config.dashboardBase}/admin/auth/sso-portal`;
}

/** The portal page, under the portal base. */
export const SSO_PORTAL_PAGE_PATH = '/setup';

interface PortalContext {
  readonly db: Db;
  readonly config: Pick<SvcConfig, 'publicOrigin' | 'dashboardBase'>;
  readonly audit: AuditLog;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** The operators' setup links (SvcAdminService hands them out). */
export function wireSsoPortalLinks(ctx: PortalContext): SsoSetupLinks {
  const organizations = organizationRepository(ctx.db);
  return new SsoSetupLinks({
    repository: ssoPortalRepository(ctx.db),
    organizationExists: async (id) => (await organizations.findById(id)) !== undefined,
    startUrl: `${ctx.config.publicOrigin}${ssoPortalBase(ctx.config)}/start`,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
}

/** What the portal surface runs on, and the test sign-in's continuation handler. */
export interface SsoPortalWiring {
  readonly sessions: SsoPortalSessions;
  /** What a portal session may do, scoped to its organization. */
  readonly setup: PortalSetup;
  readonly csrf: SessionCsrf;
  /**
   * The `portal-test` SAML continuation handler: the app factory lists it in `samlContinuationHandlers`,
   * which the ACS route dispatches to by the continuation's kind.
   */
  readonly portalTestHandler: SamlContinuationHandler;
  /** The operators' import of metadata from a URL, through the portal's fetch. */
  readonly metadataUrlImport: SsoMetadataUrlImport;
}

export function wireSsoPortal(
  ctx: PortalContext & {
    readonly config: Pick<SvcConfig, 'dns' | 'rateLimits' | 'ssoMetadataFetch'>;
    /** Handed-out tokens refused per address (the engine's `tokenChecks`). */
    readonly tokenChecks: HandedOutTokenLimit;
    readonly rateLimiter: Pick<RateLimiter, 'consume'>;
    readonly masterKey: Buffer;
    readonly sso: SsoConnectionsWiring;
    readonly domainClaims: DomainClaims;
  },
): SsoPortalWiring {
  const organizations = organizationRepository(ctx.db);
  const fetcher = metadataFetcher(ctx.config);
  const sessions = new SsoPortalSessions({
    repository: ssoPortalRepository(ctx.db),
    tokenChecks: ctx.tokenChecks,
    audit: ctx.audit,
    clock: ctx.clock,
    ids: ctx.ids,
  });
  return {
    sessions,
    setup: new PortalSetup({
      connections: ctx.sso.admin,
      domains: ctx.domainClaims,
      serviceProvider: ctx.sso.serviceProvider,
      organizationName: async (id) => (await organizations.findById(id))?.name,
      metadataFetch: {
        fetcher,
        rateLimiter: ctx.rateLimiter,
        policy: ctx.config.rateLimits.ssoMetadataFetch,
      },
    }),
    csrf: new SessionCsrf(
      deriveHostedKey(ctx.masterKey, 'sso-portal csrf'),
      ctx.config.publicOrigin,
      'sso-portal',
    ),
    portalTestHandler: new PortalTestHandler({
      sessions,
      portalUrl: `${ctx.config.publicOrigin}${ssoPortalBase(ctx.config)}${SSO_PORTAL_PAGE_PATH}`,
      clock: ctx.clock,
    }),
    metadataUrlImport: new SsoMetadataUrlImport({ connections: ctx.sso.admin, fetcher }),
  };
}

/**
 * The fetch of metadata URLs: hosts resolved where DNS look-ups go (`SVC_DNS_SERVERS` or the system's),
 * public addresses only unless `SVC_SSO_METADATA_ALLOWED_NETWORKS` lists more.
 */
function metadataFetcher(config: Pick<SvcConfig, 'dns' | 'ssoMetadataFetch'>): MetadataFetcher {
  return new MetadataFetcher(
    new PublicFetcher({ ...config.ssoMetadataFetch, lookup: hostLookup(config.dns) }),
  );
}
