import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { auditApiRoutes } from '../audit/routes.js';
import { adminApiRoutes } from '../admin/routes.js';
import { userSupportAdminRoutes } from '../admin/user-support-routes.js';
import { applicationAccessRoutes } from '../applications/routes.js';
import type { SvcConfig } from '../config/resolve.js';
import { healthRoutes } from '../health/routes.js';
import { jsonErrorHandler, sendNotFound } from '../http/errors.js';
import { acceptJsonBodies } from '../http/json-body.js';
import { loggerOptions } from '../http/logging.js';
import { hideFromOpenApi } from '../http/openapi.js';
import { requireOperator } from '../http/operator-guard.js';
import { operatorDashboardRoutes } from '../operator-dashboard/routes.js';
import { bundledDashboard, dashboardDistFolder } from '../operator-dashboard/bundled-dashboard.js';
import { RequestLog } from '../http/request-log.js';
import { answerStaticDocuments, type StaticDocumentRoute } from '../http/static-documents.js';
import { accountDirectRoutes } from '../direct/account-routes.js';
import { invitationAdminRoutes } from '../admin/invitation-routes.js';
import { passwordlessDirectRoutes } from '../direct/passwordless-routes.js';
import { mfaDirectRoutes } from '../direct/mfa-routes.js';
import { oidcConnectionAdminRoutes } from '../admin/oidc-connection-routes.js';
import { calendarAdminRoutes } from '../admin/calendar-routes.js';
import { calendarStatusAdminRoutes } from '../admin/calendar-status-routes.js';
import { calendarCallbackRoutes } from '../calendar/callback-routes.js';
import { calendarDirectRoutes } from '../direct/calendar-routes.js';
import { domainClaimAdminRoutes } from '../admin/domain-claim-routes.js';
import { homeRealmAdminRoutes } from '../admin/home-realm-routes.js';
import { ssoConnectionAdminRoutes } from '../admin/sso-connection-routes.js';
import { ssoPortalLinkAdminRoutes } from '../admin/sso-portal-link-routes.js';
import { ssoMetadataUrlAdminRoutes } from '../admin/sso-metadata-url-routes.js';
import { samlMetadataRoutes } from '../federation/saml/routes.js';
import { scimRoutes } from '../scim/routes.js';
import { scimConnectionAdminRoutes } from '../admin/scim-connection-routes.js';
import { scimMappingAdminRoutes } from '../admin/scim-mapping-routes.js';
import { setupPortalRoutes } from '../setup-portal/routes.js';
import { SSO_PORTAL_PAGE_PATH, ssoPortalBase } from './wire-sso-portal.js';
import { emailAdminRoutes } from '../email/routes.js';
import { fgaAdminRoutes } from '../fga/routes.js';
import { directRoutes } from '../direct/routes.js';
import { ssoDirectRoutes } from '../direct/sso-routes.js';
import { oidcDirectRoutes } from '../direct/oidc-routes.js';
import { hostedRoutes } from '../hosted/routes.js';
import { samlAcsRoutes } from '../hosted/saml/acs-routes.js';
import { hostedSignInRoutes } from '../hosted/sign-in-routes.js';
import { headlessRoutes } from '../headless/routes.js';
import { authorizeRoutes } from '../hosted/authorize-routes.js';
import { tokenRoutes } from '../oauth/token/token-routes.js';
import { registrationRoutes } from '../oauth/clients/registration/routes.js';
import { deviceAuthorizationRoutes } from '../oauth/device/routes.js';
import { isUserinfoMapped } from '../oauth/userinfo/metadata.js';
import { userinfoRoutes } from '../oauth/userinfo/routes.js';
import { discoveryDocuments, discoveryRoutes, rootDiscoveryDocuments } from '../oauth/discovery/routes.js';
import type {
  DirectSurface,
  DiscoverySurface,
  HostedSurface,
  OAuthSurface,
  OperatorSurface,
  SvcHttpSurfaces,
} from './http-surfaces.js';

function svcDiscoveryDocuments(config: SvcConfig, surface: DiscoverySurface): readonly StaticDocumentRoute[] {
  return discoveryDocuments({
    discovery: surface.discovery,
    keys: surface.keys,
    publishOpenIdConfiguration: config.openId.enabled && config.openId.publishDiscoveryDocument,
  });
}

/**
 * The documents the standalone server answers before routing, by their whole paths. None while the
 * access log is on: it has a line for every request, and only Fastify writes those.
 */
export function svcEarlyDocuments(
  config: SvcConfig,
  surface: DiscoverySurface,
): readonly StaticDocumentRoute[] {
  if (config.accessLog) return [];
  const documents = svcDiscoveryDocuments(config, surface);
  return [
    ...documents.map((document) => ({ ...document, path: `${config.authBase}${document.path}` })),
    ...rootDiscoveryDocuments(documents, config.authBase),
  ];
}

/** Request bodies above this are refused with 413 before parsing. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/** Where a surface mounts: the Svc plugin's instance and the auth base's path under the dashboard base. */
interface Mount {
  readonly svc: FastifyInstance;
  readonly authPath: string;
  readonly config: SvcConfig;
}

/**
 * Every Svc surface as one encapsulated Fastify plugin, mounted at the dashboard base. Each surface is a
 * plugin of its own with its own error mapper, mounted from its own part of `surfaces`; unknown routes
 * under the base answer the one 404 body that unauthorized admin calls also get.
 */
export function svcHttpPlugin(config: SvcConfig, surfaces: SvcHttpSurfaces): FastifyPluginAsync {
  const authPath = config.authBase.slice(config.dashboardBase.length);
  const discovery = svcDiscoveryDocuments(config, surfaces.discovery);
  return async (host) => {
    await host.register(
      async (svc) => {
        // The body limit holds for Svc's routes in a host app too, whose own bodyLimit (Fastify's 1 MiB
        // default, or whatever the host chose) would otherwise apply: a route-level limit wins over it.
        svc.addHook('onRoute', (route) => {
          route.bodyLimit ??= BODY_LIMIT_BYTES;
        });
        hideFromOpenApi(svc);
        acceptJsonBodies(svc);
        svc.setNotFoundHandler((_request, reply) => sendNotFound(reply));
        svc.setErrorHandler(jsonErrorHandler);
        const mount: Mount = { svc, authPath, config };
        await svc.register(healthRoutes({ readiness: surfaces.readiness }));
        await svc.register(
          operatorDashboardRoutes({
            dashboard: surfaces.operator.dashboard,
            site: { dashboardBase: config.dashboardBase, publicOrigin: config.publicOrigin },
            authBase: config.authBase,
            now: () => config.clock.now(),
            bundled: await bundledDashboard(dashboardDistFolder()),
          }),
        );
        await svc.register(discoveryRoutes(discovery), { prefix: authPath });
        await mountOAuth(mount, surfaces.oauth);
        await mountDirect(mount, surfaces.direct);
        // Calendar connections are mapped only while they are on (docs/reference/calendar.md).
        if (config.calendar.enabled) await mountCalendar(mount, surfaces);
        await mountHosted(mount, surfaces.hosted);
        await mountOperator(mount, surfaces.operator);
        // SCIM: its own bearer tokens, content type and error schema.
        await svc.register(scimRoutes({ provider: surfaces.scim }), {
          prefix: config.scim.basePath.slice(config.dashboardBase.length),
        });
        // The customer SSO setup portal: its own cookie authorizes it, never the operator token.
        const portalBase = ssoPortalBase(config);
        await svc.register(
          setupPortalRoutes({
            portalBase,
            pagePath: SSO_PORTAL_PAGE_PATH,
            publicOrigin: config.publicOrigin,
            ...surfaces.setupPortal,
            clock: config.clock,
          }),
          { prefix: portalBase.slice(config.dashboardBase.length) },
        );
      },
      { prefix: config.dashboardBase },
    );
    // Outside the dashboard base: where RFC 8414 puts the metadata of an issuer with a path.
    await host.register(async (root) => {
      hideFromOpenApi(root);
      await root.register(discoveryRoutes(rootDiscoveryDocuments(discovery, config.authBase)));
    });
  };
}

async function mountOAuth({ svc, authPath, config }: Mount, oauth: OAuthSurface): Promise<void> {
  const prefix = { prefix: authPath };
  await svc.register(tokenRoutes({ tokenEndpoint: oauth.tokenEndpoint }), prefix);
  await svc.register(deviceAuthorizationRoutes({ endpoint: oauth.deviceAuthorization }), prefix);
  if (oauth.registration !== null) {
    await svc.register(registrationRoutes({ registration: oauth.registration }), prefix);
  }
  if (isUserinfoMapped(config)) await svc.register(userinfoRoutes({ userinfo: oauth.userinfo }), prefix);
  await svc.register(samlMetadataRoutes({ serviceProvider: oauth.samlServiceProvider }), prefix);
}

async function mountDirect({ svc, authPath }: Mount, direct: DirectSurface): Promise<void> {
  const prefix = { prefix: authPath };
  await svc.register(directRoutes({ auth: direct.auth }), prefix);
  await svc.register(passwordlessDirectRoutes({ passwordless: direct.passwordless }), prefix);
  await svc.register(mfaDirectRoutes({ mfa: direct.mfa }), prefix);
  await svc.register(accountDirectRoutes({ account: direct.account }), prefix);
  await svc.register(oidcDirectRoutes({ auth: direct.auth }), prefix);
  await svc.register(ssoDirectRoutes({ sso: direct.sso }), prefix);
}

async function mountCalendar(
  { svc, authPath }: Mount,
  surfaces: Pick<SvcHttpSurfaces, 'calendar' | 'hosted' | 'operator'>,
): Promise<void> {
  const { calendar, consent } = surfaces.calendar;
  const { site } = surfaces.hosted.signIn;
  const { antiforgery } = surfaces.hosted;
  await svc.register(calendarCallbackRoutes({ consent, site, antiforgery }), { prefix: authPath });
  await svc.register(calendarDirectRoutes({ calendar }), { prefix: authPath });
  await svc.register(
    async (scope) => {
      requireOperator(scope, surfaces.operator.token, surfaces.operator.dashboard);
      await scope.register(calendarAdminRoutes({ calendar }));
    },
    { prefix: '/admin/calendar/api' },
  );
}

async function mountHosted({ svc, authPath, config }: Mount, hosted: HostedSurface): Promise<void> {
  const { signIn, antiforgery } = hosted;
  // /authorize sits inside the hosted plugin: it uses its cookies, security headers and error page.
  await svc.register(
    hostedRoutes({
      authBase: config.authBase,
      antiforgery,
      routes: [
        authorizeRoutes(signIn),
        hostedSignInRoutes(signIn),
        samlAcsRoutes({
          consumer: hosted.samlAssertionConsumer,
          site: signIn.site,
          clock: signIn.clock,
          antiforgery,
        }),
      ],
    }),
    { prefix: authPath },
  );
  // The headless API: a sibling of the hosted plugin (JSON, no antiforgery form token, its own errors).
  if (config.headless.enabled) {
    await svc.register(headlessRoutes({ signIn, allowedOrigins: config.headless.allowedOrigins }), {
      prefix: config.headless.basePath.slice(config.dashboardBase.length),
    });
  }
}

/** The operator APIs, each behind the operator guard under its own prefix. */
async function mountOperator({ svc, config }: Mount, operator: OperatorSurface): Promise<void> {
  const guarded = async (prefix: string, register: (scope: FastifyInstance) => Promise<void>) =>
    svc.register(
      async (scope) => {
        requireOperator(scope, operator.token, operator.dashboard);
        await register(scope);
      },
      { prefix },
    );
  const { admin } = operator;
  await guarded('/admin/auth/api', async (scope) => {
    await scope.register(adminApiRoutes({ admin }));
    await scope.register(applicationAccessRoutes({ access: operator.applicationAccess }));
    await scope.register(invitationAdminRoutes({ invitations: operator.invitations }));
    await scope.register(userSupportAdminRoutes({ admin, account: operator.account }));
    await scope.register(oidcConnectionAdminRoutes({ admin }));
    await scope.register(domainClaimAdminRoutes({ admin }));
    await scope.register(ssoConnectionAdminRoutes({ admin }));
    await scope.register(scimConnectionAdminRoutes({ admin }));
    await scope.register(scimMappingAdminRoutes({ admin }));
    await scope.register(ssoPortalLinkAdminRoutes({ admin }));
    await scope.register(homeRealmAdminRoutes({ homeRealms: operator.homeRealms }));
    await scope.register(ssoMetadataUrlAdminRoutes({ metadataUrls: operator.ssoMetadataUrls }));
    await scope.register(calendarStatusAdminRoutes({ enabled: config.calendar.enabled }));
  });
  await guarded('/admin/email/api', async (scope) => {
    await scope.register(emailAdminRoutes({ email: operator.email }));
  });
  await guarded('/admin/fga/api', async (scope) => {
    await scope.register(fgaAdminRoutes({ fga: operator.fga }));
  });
  await guarded('/admin/audit/api', async (scope) => {
    await scope.register(
      auditApiRoutes({ audit: operator.audit, summary: operator.auditSummary, clock: config.clock }),
    );
  });
}

/** The standalone server and its raw request listener, for a host's own `http.Server`. */
export interface StandaloneApp {
  readonly app: FastifyInstance;
  readonly handler: (request: IncomingMessage, response: ServerResponse) => void;
}

/**
 * The standalone server: a Fastify instance holding only Svc, whose HTTP server answers `earlyDocuments`
 * before routing (docs/decisions/http-static-documents-before-routing.md).
 */
export async function buildStandaloneApp(
  config: SvcConfig,
  plugin: FastifyPluginAsync,
  earlyDocuments: readonly StaticDocumentRoute[],
): Promise<StandaloneApp> {
  let closing = false;
  const answerEarly = answerStaticDocuments(earlyDocuments, () => closing);
  const app = Fastify({
    logger: loggerOptions(config.logLevel, config.logStream),
    // Without a logger there is nothing to write, and Fastify then skips timing requests altogether.
    ...(config.logLevel === false
      ? {}
      : {
          logController: new RequestLog({
            clock: config.clock,
            accessLog: config.accessLog,
            slowRequestMs: config.slowRequestMs,
          }),
        }),
    // The HTTP/1.1 server Fastify would make, with its timeouts, in front of Fastify's own listener.
    serverFactory: (routing, options) => {
      const server = createServer((request, response) => {
        if (!answerEarly(request, response)) routing(request, response);
      });
      // Fastify's own defaults, filled in before it calls the factory.
      const setting = (name: string) => (typeof options[name] === 'number' ? options[name] : 0);
      server.keepAliveTimeout = setting('keepAliveTimeout');
      server.requestTimeout = setting('requestTimeout');
      server.setTimeout(setting('connectionTimeout'));
      if (setting('maxRequestsPerSocket') > 0) server.maxRequestsPerSocket = setting('maxRequestsPerSocket');
      return server;
    },
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    // Behind a load balancer: the client address (per-IP limits, audit) from X-Forwarded-For.
    trustProxy: trustProxyOption(config.trustProxy),
    // Errors Fastify raises before routing (a URL with broken percent-encoding) get Svc's
    // `{ error, message }` body too, instead of Fastify's own shape.
    frameworkErrors: (error, request, reply) => jsonErrorHandler(error, request, reply),
  });
  // From here requests go to Fastify, whose 503s tell clients of a closing server to go elsewhere.
  app.addHook('preClose', async () => {
    closing = true;
  });
  RequestLog.declareOn(app);
  app.setNotFoundHandler((_request, reply) => sendNotFound(reply));
  app.setErrorHandler(jsonErrorHandler);
  await app.register(plugin);
  await app.ready();
  return {
    app,
    handler: (request, response) => {
      if (!answerEarly(request, response)) app.routing(request, response);
    },
  };
}

/** Fastify's trustProxy: a hop count becomes "trust the first n hops", which proxy-addr expresses as a function. */
function trustProxyOption(
  value: SvcConfig['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof value === 'number') return (_address, hop) => hop < value;
  return typeof value === 'boolean' ? value : [...value];
}
