import { inject } from 'vitest';
import type { CreateClientBody, SvcCreatedClient, SvcOrganization, SvcUser } from '@svc/contract';
import { createAuditLog } from '../audit/audit-service.js';
import type { SvcAdminService } from '../app/facades/svc-admin-service.js';
import { SvcAuthCapabilities } from '../app/facades/svc-auth-capabilities.js';
import { SvcAuthProviders } from '../app/facades/svc-auth-providers.js';
import { svcAuthService, type SvcAuthService } from '../app/facades/svc-auth-service.js';
import { wireAdmin } from '../app/wire-admin.js';
import { wireAuth, type AuthEngine } from '../app/wire-auth.js';
import type { ClientRecord } from '../directory/repository.js';
import { SecretBox } from '../kernel/crypto.js';
import { randomIds } from '../kernel/ids.js';
import { SigningKeys } from '../oauth/keys/signing-keys.js';
import { SigningThread } from '../oauth/tokens/signing-thread.js';
import { TokenService } from '../oauth/tokens/token-service.js';
import { resolveFailureRules, type FailureRulesOptions } from '../ratelimit/failure-rules.js';
import { DEFAULT_RATE_LIMIT_RULES } from '../ratelimit/rules.js';
import { RateLimiter } from '../ratelimit/rate-limiter.js';
import { rateLimitRepository } from '../storage/repositories/rate-limits.js';
import { FailureThrottle } from '../ratelimit/failure-throttle.js';
import { SecuritySettingsService } from '../settings/security-settings-service.js';
import { DEFAULT_SECURITY_SETTINGS, type SecuritySettings } from '../settings/security-settings.js';
import { openDatabase, type Db, type Dialect } from '../storage/database.js';
import { auditEventsRepository } from '../storage/repositories/audit-events.js';
import { clientRepository } from '../storage/repositories/clients.js';
import { failureCounterRepository } from '../storage/repositories/failure-counters.js';
import { securitySettingsRepository } from '../storage/repositories/security-settings.js';
import { signingKeyRepository } from '../storage/repositories/signing-keys.js';
import { createTestDatabase } from './databases.js';
import { FakeClock } from './fake-clock.js';
import { testHashPassword } from './test-password-hashing.js';
import {
  DEFAULT_DNS,
  DEFAULT_DOMAIN_VERIFICATION,
} from '../organizations/domains/domain-verification-config.js';
import { TEST_SCIM_WIRING } from './admin-wiring.js';

export const HARNESS_ISSUER = 'http://localhost:8080/svc/auth';
export const TEST_PASSWORD = 'correct horse battery staple';
/** The issuer name authenticator apps show for harness users. */
export const HARNESS_TOTP_ISSUER = 'localhost';

export interface AuthHarnessOptions {
  readonly openIdEnabled?: boolean;
  readonly settings?: Partial<SecuritySettings>;
  /** As `createSvc({ failureLimits })`. */
  readonly failureLimits?: FailureRulesOptions;
}

export interface AuthHarness {
  readonly db: Db;
  readonly clock: FakeClock;
  readonly auth: SvcAuthService;
  readonly engine: AuthEngine;
  readonly admin: SvcAdminService;
  readonly tokens: TokenService;
  readonly keys: SigningKeys;
  readonly given: {
    /** An active user with TEST_PASSWORD (unless `password: null`). */
    user(fields?: {
      email?: string;
      displayName?: string;
      password?: string | null;
    }): Promise<SvcUser & { readonly email: string }>;
    organization(name?: string): Promise<SvcOrganization>;
    membership(organizationId: string, userId: string, role?: string): Promise<void>;
    /** A client (first-party public by default) and its stored record. */
    client(body?: Partial<CreateClientBody>): Promise<SvcCreatedClient & { record: ClientRecord }>;
  };
  /** Audit kinds in the order written. */
  auditKinds(): Promise<string[]>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * The sign-in and token engine over a fresh database of `kind` (SQLite or PostgreSQL), wired exactly as
 * `wireAuth` wires it, with a fake clock and builders for users, organizations and clients. The database
 * is a copy of the run's keyed template: migrated, with the first signing key already in it.
 */
export async function createAuthHarness(
  kind: Dialect,
  options: AuthHarnessOptions = {},
): Promise<AuthHarness> {
  const testDb = await createTestDatabase(kind, 'keyed');
  const handle = openDatabase(testDb.target);
  const { db } = handle;
  const secretBox = new SecretBox(Buffer.from(inject('testMasterKey'), 'hex'));
  const clock = new FakeClock();
  const ids = randomIds;
  const securitySettings = new SecuritySettingsService({
    repository: securitySettingsRepository(db),
    clock,
    defaults: { ...DEFAULT_SECURITY_SETTINGS, ...options.settings },
  });
  await securitySettings.initialize();
  const audit = createAuditLog({ repository: auditEventsRepository(db), clock, ids });
  const keys = new SigningKeys({
    repository: signingKeyRepository(db),
    secretBox,
    clock,
    settings: () => securitySettings.get(),
  });
  await keys.ensureActiveKey();
  const signer = new SigningThread();
  const tokens = new TokenService({ keys, issuer: HARNESS_ISSUER, clock, ids, signer });
  const adminWiring = wireAdmin({
    db,
    clock,
    ids,
    audit,
    securitySettings,
    hashPassword: testHashPassword,
    secretBox,
    config: {
      domainVerification: DEFAULT_DOMAIN_VERIFICATION,
      dns: DEFAULT_DNS,
      publicOrigin: new URL(HARNESS_ISSUER).origin,
      dashboardBase: '/svc',
      scopeDisplayNames: [],
      oidc: { connections: [] },
    },
    scim: TEST_SCIM_WIRING,
    issuer: HARNESS_ISSUER,
  });
  const admin = adminWiring.facade;
  const { engine, facadeGroups } = wireAuth({
    db,
    clock,
    ids,
    audit,
    securitySettings,
    tokens,
    admin: adminWiring,
    secretBox,
    totpIssuer: HARNESS_TOTP_ISSUER,
    failureThrottle: new FailureThrottle({ store: failureCounterRepository(db), clock }),
    rateLimiter: new RateLimiter({ store: rateLimitRepository(db), clock }),
    hashPassword: testHashPassword,
    config: {
      openId: {
        enabled: options.openIdEnabled ?? true,
        publishDiscoveryDocument: true,
        enableUserInfoEndpoint: true,
      },
      failureLimits: resolveFailureRules(options.failureLimits),
      rateLimits: DEFAULT_RATE_LIMIT_RULES,
    },
  });
  // Without the provider sign-in and the capabilities, whose operations answer an invalid operation.
  const auth = svcAuthService({
    ...facadeGroups,
    providers: new SvcAuthProviders({ oidcConnections: adminWiring.oidc.connections }),
    capabilities: new SvcAuthCapabilities({}),
  });
  const clients = clientRepository(db);

  return {
    db,
    clock,
    auth,
    engine,
    admin,
    tokens,
    keys,
    given: {
      user: (fields = {}) => {
        counter += 1;
        return admin.createUserAsync({
          displayName: fields.displayName ?? `User ${counter}`,
          email: fields.email ?? `user${counter}@example.com`,
          password: fields.password === undefined ? TEST_PASSWORD : fields.password,
        });
      },
      organization: (name) => {
        counter += 1;
        return admin.createOrganizationAsync({ name: name ?? `Org ${counter}` });
      },
      membership: async (organizationId, userId, role = 'member') => {
        await admin.createMembershipAsync({ organizationId, userId, role });
      },
      client: async (body = {}) => {
        counter += 1;
        const created = await admin.createClientAsync({
          clientId: `client-${counter}`,
          name: `Client ${counter}`,
          audience: `https://api${counter}.example.com`,
          redirectUris: ['https://app.example.com/callback'],
          isFirstParty: true,
          ...body,
        });
        const record = await clients.findByClientId(created.clientId);
        if (record === undefined) throw new Error('client not stored');
        return { ...created, record };
      },
    },
    async auditKinds() {
      const rows = await db
        .selectFrom('auditEvents')
        .select('kind')
        .orderBy('occurredAt')
        .orderBy('id')
        .execute();
      return rows.map((row) => row.kind);
    },
    async close() {
      await signer.close();
      await handle.close();
      await testDb.drop();
    },
  };
}
