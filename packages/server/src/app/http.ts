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
import { calendarCallbackRoutes } from '../calendar/callback-routes.js';
import { calendarDirectRoutes } from '../direct/calendar-routes.js';
import { domainClaimAdminRoutes } from '../admin/domain-claim-routes.js';
import { ssoConnectionAdminRoutes } from '../admin/sso-connection-routes.js';
import { ssoPortalLinkAdminRoutes } from '../admin/sso-portal-link-routes.js';
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
import type { SvcServices } from './services.js';

function svcDiscoveryDocuments(config: SvcConfig, services: SvcServices): readonly StaticDocumentRoute[] {
  return discoveryDocuments({
    discovery: services.discovery,
    keys: services.signingKeys,
    publishOpenIdConfiguration: config.openId.enabled && config.openId.publishDiscoveryDocument,
  });
}

/**
 * The documents the standalone server answers before routing, by their whole paths. None while the
 * access log is on: it has a line for every request, and only Fastify writes those.
 */
export function svcEarlyDocuments(config: SvcConfig, services: SvcServices): readonly StaticDocumentRoute[] {
  if (config.accessLog) return [];
  const documents = svcDiscoveryDocuments(config, services);
  return [
    ...documents.map((document) => ({ ...document, path: `${config.authBase}${document.path}` })),
    ...rootDiscoveryDocuments(documents, config.authBase),
  ];
}

/** Request bodies above this are refused with 413 before parsing. */
export const BODY_LIMIT_BYTES = 256 * 1024;

/**
 * Every Svc surface as one encapsulated Fastify plugin, mounted at the dashboard base. Each surface is a
 * plugin of its own with its own error mapper; unknown routes under the base answer the one 404 body
 * that unauthorized admin calls also get.
 */
export function svcHttpPlugin(config: SvcConfig, services: SvcServices): FastifyPluginAsync {
  const authPath = config.authBase.slice(config.dashboardBase.length);
  const discovery = svcDiscoveryDocuments(config, services);
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
        await svc.register(healthRoutes({ readiness: services.readiness }));
        await svc.register(
          operatorDashboardRoutes({
            dashboard: services.dashboard,
            site: { dashboardBase: config.dashboardBase, publicOrigin: config.publicOrigin },
            authBase: config.authBase,
            now: () => config.clock.now(),
            bundled: await bundledDashboard(dashboardDistFolder()),
          }),
        );
        await svc.register(discoveryRoutes(discovery), { prefix: authPath });
        await svc.register(tokenRoutes({ tokenEndpoint: services.tokenEndpoint }), { prefix: authPath });
        await svc.register(deviceAuthorizationRoutes({ endpoint: services.deviceAuthorization }), {
          prefix: authPath,
        });
        if (services.registration !== null) {
          await svc.register(registrationRoutes({ registration: services.registration }), {
            prefix: authPath,
          });
        }
        if (isUserinfoMapped(config)) {
          await svc.register(userinfoRoutes({ userinfo: services.userinfo }), { prefix: authPath });
        }
        await svc.register(directRoutes({ auth: services.auth }), { prefix: authPath });
        await svc.register(passwordlessDirectRoutes({ passwordless: services.passwordless }), {
          prefix: authPath,
        });
        await svc.register(mfaDirectRoutes({ mfa: services.authEngine.mfaOperations }), { prefix: authPath });
        await svc.register(accountDirectRoutes({ account: services.account }), { prefix: authPath });
        await svc.register(oidcDirectRoutes({ auth: services.auth }), { prefix: authPath });
        await svc.register(ssoDirectRoutes({ sso: services.sso }), { prefix: authPath });
        // Calendar connections: the callback and the operator routes are mapped only while they are on
        // (docs/reference/calendar.md).
        if (config.calendar.enabled) {
          await svc.register(
            calendarCallbackRoutes({
              consent: services.calendarConsent,
              site: services.hostedSignIn.site,
              antiforgery: services.antiforgery,
            }),
            {
              prefix: authPath,
            },
          );
          await svc.register(calendarDirectRoutes({ calendar: services.calendar }), { prefix: authPath });
          await svc.register(
            async (calendar) => {
              requireOperator(calendar, services.operatorToken, services.dashboard);
              await calendar.register(calendarAdminRoutes({ calendar: services.calendar }));
            },
            { prefix: '/admin/calendar/api' },
          );
        }
        await svc.register(samlMetadataRoutes({ serviceProvider: services.samlServiceProvider }), {
          prefix: authPath,
        });
        // /authorize sits inside the hosted plugin: it uses its cookies, security headers and error page.
        await svc.register(
          hostedRoutes({
            authBase: config.authBase,
            antiforgery: services.antiforgery,
            routes: [
              authorizeRoutes(services.hostedSignIn),
              hostedSignInRoutes(services.hostedSignIn),
              samlAcsRoutes({
                consumer: services.samlAssertionConsumer,
                site: services.hostedSignIn.site,
                clock: services.hostedSignIn.clock,
                antiforgery: services.antiforgery,
              }),
            ],
          }),
          { prefix: authPath },
        );
        // The headless API: a sibling of the hosted plugin (JSON, no antiforgery form token, its own errors).
        if (config.headless.enabled) {
          await svc.register(
            headlessRoutes({
              signIn: services.hostedSignIn,
              allowedOrigins: config.headless.allowedOrigins,
            }),
            { prefix: config.headless.basePath.slice(config.dashboardBase.length) },
          );
        }
        await svc.register(
          async (admin) => {
            requireOperator(admin, services.operatorToken, services.dashboard);
            await admin.register(adminApiRoutes({ admin: services.admin }));
            await admin.register(applicationAccessRoutes({ access: services.applicationAccess }));
            await admin.register(invitationAdminRoutes({ invitations: services.invitations }));
            await admin.register(
              userSupportAdminRoutes({ admin: services.admin, account: services.account }),
            );
            await admin.register(oidcConnectionAdminRoutes({ admin: services.admin }));
            await admin.register(domainClaimAdminRoutes({ admin: services.admin }));
            await admin.register(ssoConnectionAdminRoutes({ admin: services.admin }));
            await admin.register(scimConnectionAdminRoutes({ admin: services.admin }));
            await admin.register(scimMappingAdminRoutes({ admin: services.admin }));
            await admin.register(ssoPortalLinkAdminRoutes({ admin: services.admin }));
          },
          { prefix: '/admin/auth/api' },
        );
        // SCIM: its own bearer tokens, content type and error schema.
        await svc.register(scimRoutes({ provider: services.scimServiceProvider }), {
          prefix: config.scim.basePath.slice(config.dashboardBase.length),
        });
        // The customer SSO setup portal: its own cookie authorizes it, never the operator token.
        const portalBase = ssoPortalBase(config);
        await svc.register(
          setupPortalRoutes({
            portalBase,
            pagePath: SSO_PORTAL_PAGE_PATH,
            publicOrigin: config.publicOrigin,
            sessions: services.ssoPortal.sessions,
            setup: services.ssoPortal.setup,
            csrf: services.ssoPortal.csrf,
            clock: config.clock,
          }),
          { prefix: portalBase.slice(config.dashboardBase.length) },
        );
        await svc.register(
          async (email) => {
            requireOperator(email, services.operatorToken, services.dashboard);
            await email.register(emailAdminRoutes({ email: services.email }));
          },
          { prefix: '/admin/email/api' },
        );
        await svc.register(
          async (fga) => {
            requireOperator(fga, services.operatorToken, services.dashboard);
            await fga.register(fgaAdminRoutes({ fga: services.fgaAdmin }));
          },
          { prefix: '/admin/fga/api' },
        );
        await svc.register(
          async (audit) => {
            requireOperator(audit, services.operatorToken, services.dashboard);
            await audit.register(
              auditApiRoutes({ audit: services.audit, summary: services.auditSummary, clock: config.clock }),
            );
          },
          { prefix: '/admin/audit/api' },
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
