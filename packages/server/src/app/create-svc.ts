import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { createAuditLog } from '../audit/audit-service.js';
import { createAuditSummary } from '../audit/summary.js';
import { loadMasterKey } from '../config/master-key.js';
import { optionsFromEnv } from '../config/env.js';
import type { SvcOptions } from '../config/options.js';
import { resolveConfig, type SvcConfig } from '../config/resolve.js';
import { Antiforgery, deriveHostedKey } from '../http/antiforgery.js';
import { HOUR_MS } from '../kernel/clock.js';
import { SecretBox } from '../kernel/crypto.js';
import { UserinfoService } from '../oauth/userinfo/userinfo-service.js';
import { SigningKeys } from '../oauth/keys/signing-keys.js';
import { SigningThread } from '../oauth/tokens/signing-thread.js';
import { TokenService } from '../oauth/tokens/token-service.js';
import { FailureThrottle } from '../ratelimit/failure-throttle.js';
import { operatorTokenCheck } from '../admin/operator-token.js';
import { wireSsoPortal } from './wire-sso-portal.js';
import { RateLimiter } from '../ratelimit/rate-limiter.js';
import { SecuritySettingsService } from '../settings/security-settings-service.js';
import { passwordHashing } from '../directory/password-hasher.js';
import { createSmsVerificationProvider } from '../sms/verify-client.js';
import { checkReadiness } from '../health/readiness.js';
import { databaseProbe } from '../storage/readiness-probe.js';
import { migrateDatabase, openDatabase, type DatabaseHandle } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { operatorSessionStore } from '../storage/repositories/operator-sessions.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { failureCounterRepository } from '../storage/repositories/failure-counters.js';
import { rateLimitRepository } from '../storage/repositories/rate-limits.js';
import { securitySettingsRepository } from '../storage/repositories/security-settings.js';
import { signingKeyRepository } from '../storage/repositories/signing-keys.js';
import { runHousekeeping, type HousekeepingReport } from './housekeeping.js';
import { buildStandaloneApp, svcEarlyDocuments, svcHttpPlugin } from './http.js';
import { seedDemo, type DemoSeed } from './seed-demo.js';
import type { SvcServices } from './services.js';
import { wireAdmin } from './wire-admin.js';
import { SvcAuthCapabilities } from './facades/svc-auth-capabilities.js';
import { SvcAuthProviders } from './facades/svc-auth-providers.js';
import { svcAuthService } from './facades/svc-auth-service.js';
import { wireAccount } from './wire-account.js';
import { wireAuth } from './wire-auth.js';
import { wireInvitations } from './wire-invitations.js';
import { wirePasswordless } from './wire-passwordless.js';
import { wirePhoneOtp } from './wire-phone-otp.js';
import { wireEmail } from './wire-email.js';
import { wireAuthorize } from './wire-authorize.js';
import { wireOidcSignIn } from './wire-oidc-connections.js';
import { wireSamlAppEntry, wireSamlAssertionConsumer } from './wire-saml-sign-in.js';
import { wireDashboard } from './wire-dashboard.js';
import { wireDevice } from './wire-device.js';
import { wireTokenEndpoint } from './wire-token-endpoint.js';
import { wireDiscovery } from './wire-discovery.js';
import { wireCalendar } from './wire-calendar.js';

/** How often a node runs its housekeeping (app/housekeeping.ts). */
const MAINTENANCE_INTERVAL_MS = HOUR_MS;

/** What createSvc() answers: the public services (see SvcServices), the HTTP entry points and the lifecycle. */
export interface Svc extends SvcServices {
  readonly config: SvcConfig;
  /** @internal The database connection (tests and the benchmark read it directly). */
  readonly database: DatabaseHandle;
  /** What the demo seed created on this start, when `seedDemo` is on. */
  readonly demo: DemoSeed | undefined;
  /** Mount Svc in a host Fastify app: `await host.register(svc.plugin)`. Routes live under the dashboard base. */
  readonly plugin: FastifyPluginAsync;
  /** The standalone Fastify instance (used by the CLI, `inject()` in tests, and the Node handler). */
  readonly app: FastifyInstance;
  /** A plain Node `(req, res)` handler for `http.createServer()` or any framework that forwards raw requests. */
  readonly handler: (request: IncomingMessage, response: ServerResponse) => void;
  /**
   * Runs the housekeeping a node does every hour (signing keys; expired requests, codes, links, tokens,
   * counters; re-checks of domain claims) once now; for tests and for hosts that schedule it themselves.
   */
  housekeeping(): Promise<HousekeepingReport>;
  /** Listens on the configured host and port; resolves to the address. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface CreateSvcContext {
  /** Environment to read SVC_* variables from. @default process.env; pass {} to ignore the environment. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The one app factory: configuration, storage, services and HTTP. The CLI, the standalone server and
 * every HTTP test build Svc through this function.
 */
export async function createSvc(options: SvcOptions = {}, context: CreateSvcContext = {}): Promise<Svc> {
  const environment = context.env ?? process.env;
  const config = resolveConfig({ ...optionsFromEnv(environment), ...options });
  const masterKey = loadMasterKey(config);
  const secretBox = new SecretBox(masterKey);
  const database = openDatabase(config.database, config.databaseTimeouts);
  const signer = new SigningThread();
  try {
    if (config.migrateOnStart) await migrateDatabase(config.database, database, config.databaseTimeouts);
    const { db } = database;
    const { clock, ids } = config;
    const hashPassword = passwordHashing(config.passwordHashing);

    const securitySettings = new SecuritySettingsService({
      repository: securitySettingsRepository(db),
      clock,
      defaults: config.securityDefaults,
    });
    await securitySettings.initialize();
    const audit = createAuditLog({ repository: auditEventsRepository(db), clock, ids });
    const signingKeys = new SigningKeys({
      repository: signingKeyRepository(db),
      secretBox,
      clock,
      settings: () => securitySettings.get(),
      cacheTtlMs: config.signingKeyCacheMs,
    });
    await signingKeys.ensureActiveKey();
    await signingKeys.maintain();
    const tokens = new TokenService({ keys: signingKeys, issuer: config.issuer, clock, ids, signer });
    const rateLimiter = new RateLimiter({ store: rateLimitRepository(db), clock });
    const joining = wireDiscovery({ db, config, clock, ids, audit, rateLimiter });
    const { discovery, clientDocuments } = joining;
    const adminWiring = wireAdmin({
      db,
      clock,
      ids,
      audit,
      securitySettings,
      hashPassword,
      onClientsChanged: () => discovery.invalidate(),
      secretBox,
      config,
      issuer: config.issuer,
      scim: { config: config.scim, tokenFailures: config.failureLimits.scimTokenIp },
    });
    const admin = adminWiring.facade;
    await adminWiring.seed((name) => environment[name]);
    const failureThrottle = new FailureThrottle({ store: failureCounterRepository(db), clock });
    const { engine: authEngine, facadeGroups } = wireAuth({
      db,
      clock,
      ids,
      audit,
      securitySettings,
      tokens,
      config,
      admin: adminWiring,
      secretBox,
      totpIssuer: new URL(config.publicOrigin).hostname,
      failureThrottle,
      rateLimiter,
      hashPassword,
    });
    const antiforgery = new Antiforgery({
      key: deriveHostedKey(masterKey, 'antiforgery'),
      clock,
      ids,
      publicOrigin: config.publicOrigin,
    });
    const clients = clientRepository(db);
    const device = wireDevice({
      db,
      config,
      clientDocuments,
      engine: authEngine,
      securitySettings,
      rateLimiter,
      audit,
      clock,
      ids,
    });
    const tokenEndpoint = wireTokenEndpoint({ clients, engine: authEngine, tokens, device, clock });
    // The app's logger exists only after the HTTP app is built; the email service logs through it lazily.
    const appLog: { current?: { info(message: string): void; warn(message: string): void } } = {};
    const emailWiring = wireEmail({
      db,
      config,
      clock,
      ids,
      audit,
      logger: {
        info: (message) => appLog.current?.info(message),
        warn: (message) => appLog.current?.warn(message),
      },
    });
    const smsProvider = createSmsVerificationProvider(config.sms);
    const phoneOtp = wirePhoneOtp({
      db,
      config,
      engine: authEngine,
      smsProvider,
      rateLimiter,
      failureThrottle,
      audit,
      clock,
      ids,
    });
    const account = wireAccount({
      db,
      config,
      clock,
      ids,
      audit,
      email: emailWiring.email,
      rateLimiter,
      engine: authEngine,
      hashPassword,
    });
    const passwordless = wirePasswordless({
      db,
      config,
      authEngine,
      email: emailWiring.email,
      rateLimiter,
      failureThrottle,
      audit,
      clock,
      ids,
    });
    const invitationWiring = wireInvitations({
      db,
      config,
      email: emailWiring.email,
      rateLimiter,
      audit,
      clock,
      ids,
      engine: authEngine,
    });
    const oidcSignIn = wireOidcSignIn({
      db,
      config,
      oidc: adminWiring.oidc,
      engine: authEngine,
      audit,
      clock,
      ids,
    });
    const capabilities = {
      passwordless,
      phoneOtp,
      account,
      invitations: invitationWiring.invitations,
      invitationSignup: invitationWiring.signup,
    };
    // svc.auth: the groups over the engine, and those over the provider sign-in and the capabilities.
    const auth = svcAuthService({
      ...facadeGroups,
      providers: new SvcAuthProviders({
        oidcConnections: adminWiring.oidc.connections,
        providerSignIn: oidcSignIn.firstParty,
        homeRealms: adminWiring.sso.realms,
      }),
      capabilities: new SvcAuthCapabilities({ ...capabilities, devices: device.operations }),
    });
    const calendar = wireCalendar({
      db,
      config,
      connections: adminWiring.oidc.connections,
      relyingParty: oidcSignIn.relyingParty,
      engine: authEngine,
      secretBox,
      audit,
      clock,
      ids,
    });
    const sso = adminWiring.sso;
    const hostedSignIn = wireAuthorize({
      db,
      providers: oidcSignIn.signIn,
      saml: { realms: sso.realms, serviceProvider: sso.serviceProvider, accounts: sso.accounts, audit },
      engine: authEngine,
      audit,
      antiforgery,
      config,
      devices: device.devices,
      clientDocuments,
      rateLimiter,
      signingKeys,
      capabilities,
    });
    const { fga } = adminWiring;
    const readinessDeps = { probe: databaseProbe(db), timeoutMs: config.databaseTimeouts.statementMs };
    // What the setup portal and the SAML entry points of first-party apps are wired with.
    const samlContext = { db, config, audit, clock, ids, sso, tokenChecks: authEngine.tokenChecks };
    const ssoPortal = wireSsoPortal({
      ...samlContext,
      rateLimiter,
      masterKey,
      domainClaims: adminWiring.domainClaims.claims,
    });
    const samlApps = wireSamlAppEntry({ ...samlContext, hostedSignIn, engine: authEngine, oidc: oidcSignIn });
    // The SAML continuations of entry points other than the engine's own sign-in, for the ACS route.
    const samlContinuationHandlers = [ssoPortal.portalTestHandler, ...samlApps.handlers];
    const services: SvcServices = {
      auth,
      authEngine,
      admin,
      audit,
      securitySettings,
      signingKeys,
      tokens,
      discovery,
      registration: joining.registration,
      antiforgery,
      hostedSignIn,
      tokenEndpoint,
      deviceAuthorization: device.endpoint,
      devices: device.devices,
      userinfo: new UserinfoService({ accessTokens: authEngine.tokens.accessTokens }),
      rateLimiter,
      smsProvider,
      email: emailWiring.email,
      account,
      passwordless,
      invitations: invitationWiring.invitations,
      operatorToken: operatorTokenCheck(config, rateLimiter, audit),
      oidcConnections: adminWiring.oidc.connections,
      calendar: calendar.facade,
      calendarConsent: calendar.consent,
      domainClaims: adminWiring.domainClaims.claims,
      samlServiceProvider: sso.serviceProvider,
      scimServiceProvider: adminWiring.scim.serviceProvider,
      scimEvents: adminWiring.scim.events,
      fga: fga.facade,
      fgaAdmin: fga.admin,
      applicationAccess: authEngine.applications.admin,
      dashboard: wireDashboard({ ...samlContext, engine: authEngine, masterKey }),
      sso: samlApps.sso,
      ssoPortal,
      samlContinuationHandlers,
      samlAssertionConsumer: wireSamlAssertionConsumer({
        ...samlContext,
        hostedSignIn,
        handlers: samlContinuationHandlers,
      }),
      samlRealms: sso.realms,
      samlAccounts: sso.accounts,
      readiness: () => checkReadiness(readinessDeps),
      auditSummary: createAuditSummary({
        repository: auditEventsRepository(db),
        sessions: operatorSessionStore(db),
        clock,
      }),
    };

    const demo = config.seedDemo ? await seedDemo(admin, { production: !config.development }) : undefined;
    const plugin = svcHttpPlugin(config, services);
    const { app, handler } = await buildStandaloneApp(config, plugin, svcEarlyDocuments(config, services));
    appLog.current = { info: (message) => app.log.info(message), warn: (message) => app.log.warn(message) };

    const housekeeping = () =>
      runHousekeeping({
        db,
        clock,
        signingKeys,
        authorizeFlow: hostedSignIn.flow,
        rateLimiter,
        failureThrottle,
        domainClaims: adminWiring.domainClaims.rechecks,
        clients,
        audit,
      });
    const timer = config.keyRotationSchedule
      ? setInterval(() => {
          housekeeping().catch((error: unknown) => app.log.error({ err: error }, 'housekeeping failed'));
        }, MAINTENANCE_INTERVAL_MS).unref()
      : undefined;

    let closed = false;
    return {
      ...services,
      config,
      database,
      demo,
      plugin,
      app,
      housekeeping,
      handler,
      listen: () => app.listen({ port: config.port, host: config.host }),
      async close() {
        if (closed) return;
        closed = true;
        clearInterval(timer);
        await app.close();
        emailWiring.close();
        await signer.close();
        await database.close();
      },
    };
  } catch (error) {
    await signer.close();
    await database.close();
    throw error;
  }
}
