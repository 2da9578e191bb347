import type { CreateClientBody, SvcCreatedClient, SvcOrganization, SvcUser } from '@svc/contract';
import type { Svc } from '../app/create-svc.js';
import type { SecurityDefaultsOptions } from '../config/options.js';
import type { ClientRecord } from '../directory/repository.js';
import type { FailureRulesOptions } from '../ratelimit/failure-rules.js';
import type { RateLimitRulesOptions } from '../ratelimit/rules.js';
import { DEFAULT_SECURITY_SETTINGS } from '../settings/security-settings.js';
import type { Db, Dialect } from '../storage/database.js';
import { clientRepository } from '../storage/repositories/clients.js';
import type { FakeClock } from './fake-clock.js';
import { createTestSvc, TEST_ORIGIN } from './test-svc.js';

export const HARNESS_ISSUER = `${TEST_ORIGIN}/svc/auth`;
export const TEST_PASSWORD = 'correct horse battery staple';
/** The issuer name authenticator apps show for harness users: the public origin's host name. */
export const HARNESS_TOTP_ISSUER = new URL(TEST_ORIGIN).hostname;

export interface AuthHarnessOptions {
  /** As `createSvc({ openId: { enabled } })`. */
  readonly openIdEnabled?: boolean;
  /** As `createSvc({ security })`: the initial security settings. */
  readonly settings?: SecurityDefaultsOptions;
  /** As `createSvc({ failureLimits })`. */
  readonly failureLimits?: FailureRulesOptions;
  /** As `createSvc({ rateLimits })`. */
  readonly rateLimits?: RateLimitRulesOptions;
}

export interface AuthHarness {
  /** The app the harness drives, built by createSvc(). */
  readonly svc: Svc;
  readonly db: Db;
  readonly clock: FakeClock;
  readonly auth: Svc['auth'];
  readonly engine: Svc['authEngine'];
  readonly admin: Svc['admin'];
  readonly tokens: Svc['tokens'];
  readonly keys: Svc['signingKeys'];
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
  /** Writes back the security settings the harness started with (after a test changed them). */
  resetSecuritySettings(): Promise<void>;
  /** Audit kinds in the order written; only those of one user or client when `of` names it. */
  auditKinds(of?: { readonly userId?: string; readonly clientId?: string }): Promise<string[]>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * A test Svc (createTestSvc: a fresh database of `kind`, SQLite or PostgreSQL, a copy of the run's keyed
 * template; a fake clock) with its sign-in and token engine at hand, and builders for users,
 * organizations and clients. The builders never repeat a name or an address, so tests may share a harness.
 */
export async function createAuthHarness(
  kind: Dialect,
  options: AuthHarnessOptions = {},
): Promise<AuthHarness> {
  const t = await createTestSvc(kind, {
    ...(options.openIdEnabled === undefined ? {} : { openId: { enabled: options.openIdEnabled } }),
    ...(options.settings === undefined ? {} : { security: options.settings }),
    ...(options.failureLimits === undefined ? {} : { failureLimits: options.failureLimits }),
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
  });
  const { svc } = t;
  const { db } = svc.database;
  const { admin } = svc;
  const clients = clientRepository(db);

  return {
    svc,
    db,
    clock: t.clock,
    auth: svc.auth,
    engine: svc.authEngine,
    admin,
    tokens: svc.tokens,
    keys: svc.signingKeys,
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
    async resetSecuritySettings() {
      await admin.updateSecuritySettingsAsync({ ...DEFAULT_SECURITY_SETTINGS, ...options.settings });
    },
    async auditKinds(of = {}) {
      let query = db.selectFrom('auditEvents').select('kind');
      if (of.userId !== undefined) query = query.where('userId', '=', of.userId);
      if (of.clientId !== undefined) query = query.where('clientId', '=', of.clientId);
      const rows = await query.orderBy('occurredAt').orderBy('id').execute();
      return rows.map((row) => row.kind);
    },
    close: () => t.close(),
  };
}
