import { createAuditSummary } from '../audit/summary.js';
import { loadMasterKey } from '../config/master-key.js';
import { optionsFromEnv } from '../config/env.js';
import type { SvcOptions } from '../config/options.js';
import { resolveConfig } from '../config/resolve.js';
import { Antiforgery, deriveHostedKey } from '../http/antiforgery.js';
import { HOUR_MS } from '../kernel/clock.js';
import { SecretBox } from '../kernel/crypto.js';
import { UserinfoService } from '../oauth/userinfo/userinfo-service.js';
import { SigningThread } from '../oauth/tokens/signing-thread.js';
import { operatorTokenCheck } from '../admin/operator-token.js';
import { wireSsoPortal } from './wire-sso-portal.js';
import { passwordHashing } from '../directory/password-hasher.js';
import { createSmsVerificationProvider } from '../sms/verify-client.js';
import { checkReadiness } from '../health/readiness.js';
import { databaseProbe } from '../storage/readiness-probe.js';
import { migrateDatabase, openDatabase } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { operatorSessionStore } from '../storage/repositories/operator-sessions.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { runHousekeeping } from './housekeeping.js';
import { buildStandaloneApp, svcEarlyDocuments, svcHttpPlugin } from './http.js';
import { seedDemo } from './seed-demo.js';
import type { SvcHttpSurfaces } from './http-surfaces.js';
import type { CreateSvcContext, Svc, SvcServices } from './services.js';
import { wireFoundation } from './wire-foundation.js';
import { earlyLog } from './early-log.js';
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

export type { CreateSvcContext, Svc } from './services.js';

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
    const foundation = await wireFoundation({ db, config, secretBox, signer });
    const { securitySettings, audit, signingKeys, tokens, rateLimiter, failureThrottle } = foundation;
    const joining = wireDiscovery({ db, config, clock, ids, audit, rateLimiter });
    const { discovery, clientDocuments } = joining;
    const directory = wireAdmin({
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
    const { facade: admin, oidc, sso, fga, browserSessions, consents } = directory;
    await directory.seed((name) => environment[name]);
    const { engine: authEngine, facadeGroups } = wireAuth({
      db,
      clock,
      ids,
      audit,
      securitySettings,
      tokens,
      config,
      directory: {
        users: directory.users,
        organizations: directory.organizations,
        memberships: directory.memberships,
      },
      browserSessions,
      consents,
      mfaSettings: directory.mfaSettings,
      linkedIdentities: oidc.linking,
      settingsOperations: directory.groups.settings,
      secretBox,
      totpIssuer: new URL(config.publicOrigin).hostname,
      failureThrottle,
      rateLimiter,
      hashPassword,
    });
    const { tokens: tokenEngine, direct, signup, clientSecrets, rejectedTokens, tokenChecks } = authEngine;
    const { accountClaims } = directory;
    const { access } = authEngine.applications;
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
      sessions: tokenEngine.sessions,
      access,
      clientSecrets,
      securitySettings,
      rateLimiter,
      audit,
      clock,
      ids,
    });
    const tokenEndpoint = wireTokenEndpoint({
      clients,
      clientSecrets,
      rejectedTokens,
      tokenEngine,
      tokens,
      device,
      clock,
    });
    // The app's logger exists only after the HTTP app is built; what is logged before waits for it.
    const appLog = earlyLog();
    const emailWiring = wireEmail({ db, config, clock, ids, audit, logger: appLog });
    const { email } = emailWiring;
    const smsProvider = createSmsVerificationProvider(config.sms);
    const counted = { rateLimiter, audit, clock, ids };
    const limits = { ...counted, failureThrottle };
    const phoneOtp = wirePhoneOtp({ db, config, direct, signup, smsProvider, ...limits });
    const account = wireAccount({
      db,
      config,
      clock,
      ids,
      audit,
      email,
      rateLimiter,
      tokenEngine,
      browserSessions,
      tokenChecks,
      accountClaims,
      hashPassword,
    });
    const passwordless = wirePasswordless({
      db,
      config,
      direct,
      signup,
      tokenChecks,
      accountClaims,
      email,
      ...limits,
    });
    const invitationWiring = wireInvitations({ db, config, email, signup, direct, tokenChecks, ...counted });
    const oidcSignIn = wireOidcSignIn({
      db,
      config,
      oidc,
      direct,
      organizations: authEngine.organizations,
      tokenChecks,
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
        oidcConnections: oidc.connections,
        providerSignIn: oidcSignIn.firstParty,
        homeRealms: sso.realms,
      }),
      capabilities: new SvcAuthCapabilities({ ...capabilities, devices: device.operations }),
    });
    const calendar = wireCalendar({
      db,
      config,
      connections: oidc.connections,
      relyingParty: oidcSignIn.relyingParty,
      direct,
      tokenChecks,
      browserSessions,
      secretBox,
      audit,
      clock,
      ids,
    });
    const hostedSignIn = wireAuthorize({
      db,
      providers: oidcSignIn.signIn,
      saml: { realms: sso.realms, serviceProvider: sso.serviceProvider, accounts: sso.accounts, audit },
      signIn: authEngine.signIn,
      organizations: authEngine.organizations,
      browserSessions,
      consents,
      passwords: authEngine.passwords,
      signup,
      mfa: authEngine.mfa,
      scopeDisplayNames: directory.scopeDisplayNames,
      codes: tokenEngine.codes,
      access,
      audit,
      antiforgery,
      config,
      devices: device.devices,
      clientDocuments,
      rateLimiter,
      signingKeys,
      capabilities,
    });
    const readinessDeps = { probe: databaseProbe(db), timeoutMs: config.databaseTimeouts.statementMs };
    const readiness = () => checkReadiness(readinessDeps);
    // What the setup portal and the SAML entry points of first-party apps are wired with.
    const samlContext = { db, config, audit, clock, ids, sso, tokenChecks };
    const ssoPortal = wireSsoPortal({
      ...samlContext,
      rateLimiter,
      masterKey,
      domainClaims: directory.domainClaims.claims,
    });
    const samlApps = wireSamlAppEntry({ ...samlContext, hostedSignIn, direct, oidc: oidcSignIn });
    // The SAML continuations of entry points other than the engine's own sign-in, for the ACS route.
    const samlContinuationHandlers = [ssoPortal.portalTestHandler, ...samlApps.handlers];
    const dashboard = wireDashboard({
      db,
      config,
      audit,
      clock,
      ids,
      tokenEngine,
      rejectedTokens,
      masterKey,
    });
    const surfaces: SvcHttpSurfaces = {
      readiness,
      discovery: { discovery, keys: signingKeys },
      oauth: {
        tokenEndpoint,
        deviceAuthorization: device.endpoint,
        registration: joining.registration,
        userinfo: new UserinfoService({ accessTokens: tokenEngine.accessTokens }),
        samlServiceProvider: sso.serviceProvider,
      },
      direct: { auth, passwordless, mfa: authEngine.mfaOperations, account, sso: samlApps.sso },
      hosted: {
        signIn: hostedSignIn,
        antiforgery,
        samlAssertionConsumer: wireSamlAssertionConsumer({
          ...samlContext,
          hostedSignIn,
          handlers: samlContinuationHandlers,
        }),
      },
      calendar: { calendar: calendar.facade, consent: calendar.consent },
      operator: {
        token: operatorTokenCheck(config, rateLimiter, audit),
        dashboard,
        admin,
        applicationAccess: authEngine.applications.admin,
        invitations: invitationWiring.invitations,
        account,
        email,
        fga: fga.admin,
        audit,
        auditSummary: createAuditSummary({
          repository: auditEventsRepository(db),
          sessions: operatorSessionStore(db),
          clock,
        }),
        homeRealms: auth,
        ssoMetadataUrls: ssoPortal.metadataUrlImport,
      },
      scim: directory.scim.serviceProvider,
      setupPortal: ssoPortal,
    };
    const services: SvcServices = {
      admin,
      auth,
      authEngine,
      audit,
      securitySettings,
      signingKeys,
      tokens,
      devices: device.devices,
      accountClaims,
      hostedSignIn,
      rateLimiter,
      smsProvider,
      email,
      account,
      passwordless,
      invitations: invitationWiring.invitations,
      oidcConnections: oidc.connections,
      calendar: calendar.facade,
      domainClaims: directory.domainClaims.claims,
      samlServiceProvider: sso.serviceProvider,
      scimEvents: directory.scim.events,
      fga: fga.facade,
      sso: samlApps.sso,
      ssoPortal,
      samlContinuationHandlers,
      readiness,
    };

    const demo = config.seedDemo ? await seedDemo(admin, { production: !config.development }) : undefined;
    const plugin = svcHttpPlugin(config, surfaces);
    const { app, handler } = await buildStandaloneApp(
      config,
      plugin,
      svcEarlyDocuments(config, surfaces.discovery),
    );
    appLog.attach({ info: (message) => app.log.info(message), warn: (message) => app.log.warn(message) });

    const housekeeping = () =>
      runHousekeeping({
        db,
        clock,
        signingKeys,
        authorizeFlow: hostedSignIn.flow,
        rateLimiter,
        failureThrottle,
        domainClaims: directory.domainClaims.rechecks,
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
