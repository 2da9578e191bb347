import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { svcClientSchema, svcOrganizationSchema, svcUserSchema } from '@svc/contract';
import type { Svc } from '../app/create-svc.js';
import { sha256Hex } from '../kernel/crypto.js';
import { SvcConflictError, SvcNotFoundError, SvcValidationError } from '../kernel/errors.js';
import { DEFAULT_SECURITY_SETTINGS } from '../settings/security-settings.js';
import { DEFAULT_PASSWORD_HASH_COST } from '../directory/password-hash-cost.js';
import { verifyPassword } from '../directory/password-hasher.js';
import type { Db } from '../storage/database.js';
import { describeEachDatabase } from '../test-support/databases.js';
import type { FakeClock } from '../test-support/fake-clock.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const SETTINGS = {
  refreshTokenLifetimeMinutes: 600,
  sessionIdleTimeoutMinutes: 120,
  sessionAbsoluteLifetimeMinutes: 1440,
  signingKeyRotationIntervalDays: 30,
  signingKeyGraceWindowDays: 5,
  signingKeyRetiredCleanupDays: 10,
};

describeEachDatabase('admin services', (kind) => {
  let t: TestSvc;
  let db: Db;
  let clock: FakeClock;
  let admin: Svc['admin'];

  const open = async () => {
    // The production cost: one test here checks the parameters stored hashes carry.
    t = await createTestSvc(kind, { passwordHashing: DEFAULT_PASSWORD_HASH_COST });
    db = t.svc.database.db;
    clock = t.clock;
    admin = t.svc.admin;
  };
  const close = () => t.close();

  const auditKinds = async (): Promise<string[]> =>
    (await db.selectFrom('auditEvents').select('kind').orderBy('occurredAt').orderBy('id').execute()).map(
      (row) => row.kind,
    );
  /** How many events of `kind` the audit log holds. */
  const audited = async (kind: string) => (await auditKinds()).filter((k) => k === kind).length;

  describe('from an empty directory', () => {
    // Each test counts slugs, users or audit events from none: an app of its own.
    beforeEach(open);
    afterEach(close);

    it('generates unique slugs from names and refuses a taken explicit slug', async () => {
      const first = await admin.createOrganizationAsync({ name: '  Café Ørsted & Co ' });
      expect(svcOrganizationSchema.parse(first)).toEqual(first);
      expect(first).toMatchObject({
        name: 'Café Ørsted & Co',
        slug: 'cafe-orsted-and-co',
        primaryDomain: null,
      });
      const second = await admin.createOrganizationAsync({ name: 'CAFE ORSTED and co', slug: null });
      const third = await admin.createOrganizationAsync({ name: 'cafe-orsted-and-co' });
      expect([second.slug, third.slug]).toEqual(['cafe-orsted-and-co-2', 'cafe-orsted-and-co-3']);

      // An explicit slug that looks like a generated one takes that place; generation skips it.
      await admin.createOrganizationAsync({ name: 'Other', slug: 'cafe-orsted-and-co-4' });
      expect((await admin.createOrganizationAsync({ name: 'Café Ørsted & Co' })).slug).toBe(
        'cafe-orsted-and-co-5',
      );

      await expect(
        admin.createOrganizationAsync({ name: 'Dup', slug: 'cafe-orsted-and-co' }),
      ).rejects.toBeInstanceOf(SvcConflictError);
      expect((await admin.createOrganizationAsync({ name: '株式会社' })).slug).toBe('org');
      expect((await admin.createOrganizationAsync({ name: '有限会社' })).slug).toBe('org-2');
      const long = await admin.createOrganizationAsync({ name: 'x'.repeat(100) });
      const longer = await admin.createOrganizationAsync({ name: 'x'.repeat(100) });
      expect([long.slug.length, longer.slug]).toEqual([63, `${'x'.repeat(61)}-2`]);
    });

    it('normalizes emails to one lookup key, hashes passwords with argon2id and never exposes the hash', async () => {
      const user = await admin.createUserAsync({
        displayName: 'Ann',
        email: '  Ann.Lee@Example.com ',
        password: 'correct horse',
      });
      expect(svcUserSchema.parse(user)).toEqual(user);
      expect(user).toMatchObject({
        email: 'Ann.Lee@Example.com',
        hasPassword: true,
        emailVerified: false,
        isOperator: false,
      });
      expect(user).not.toHaveProperty('passwordHash');

      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.emailKey).toBe('ANN.LEE@EXAMPLE.COM');
      expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword(row.passwordHash ?? '', 'correct horse')).toBe(true);
      expect(await verifyPassword(row.passwordHash ?? '', 'wrong horse')).toBe(false);

      for (const variant of ['ann.lee@example.com', 'ANN.LEE@EXAMPLE.COM', '\tann.LEE@example.COM  ']) {
        await expect(admin.createUserAsync({ displayName: 'Dup', email: variant })).rejects.toBeInstanceOf(
          SvcConflictError,
        );
      }
      const passwordless = await admin.createUserAsync({
        displayName: 'Bo',
        email: 'bo@example.com',
        password: null,
      });
      expect(passwordless.hasPassword).toBe(false);
      await expect(
        admin.createUserAsync({ displayName: 'Cy', email: 'cy@example.com', password: 'short' }),
      ).rejects.toThrow(/password/);
      expect(await auditKinds()).toEqual(['admin.user.created', 'admin.user.created']);
    });

    it('pages newest first across pages without duplicates, also within one millisecond', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        if (i % 3 === 0) clock.advance(1); // several rows share a createdAt: the id breaks the tie
        ids.push((await admin.createOrganizationAsync({ name: `Org ${i}` })).id);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await admin.listOrganizationsAsync(
          cursor === undefined ? { limit: 3 } : { limit: 3, cursor },
        );
        seen.push(...page.data.map((org) => org.id));
        cursor = page.nextCursor ?? undefined;
        pages += 1;
      } while (cursor !== undefined);
      expect(pages).toBe(3);
      expect(new Set(seen).size).toBe(7);
      expect(seen.slice(0, 1)).toEqual([ids[6]]);
      expect(new Set(seen)).toEqual(new Set(ids));
      await expect(admin.listUsersAsync({ limit: 2, cursor: 'garbage' })).rejects.toBeInstanceOf(
        SvcValidationError,
      );
      expect(await admin.listUsersAsync()).toEqual({ data: [], nextCursor: null });
    });

    it('validates and persists security settings', async () => {
      expect(await admin.getSecuritySettingsAsync()).toEqual(DEFAULT_SECURITY_SETTINGS);
      const saved = await admin.updateSecuritySettingsAsync(SETTINGS);
      expect(saved).toEqual({ ...SETTINGS, refreshTokenGraceWindowSeconds: 30 });
      expect(await admin.getSecuritySettingsAsync()).toEqual(saved);
      expect(await admin.getResolvedSecuritySettingsAsync()).toMatchObject({
        refreshTokenLifetimeMs: 600 * 60_000,
      });
      expect(
        await admin.updateSecuritySettingsAsync({ ...SETTINGS, refreshTokenGraceWindowSeconds: 5 }),
      ).toMatchObject({
        refreshTokenGraceWindowSeconds: 5,
      });

      const error = await admin
        .updateSecuritySettingsAsync({ ...SETTINGS, signingKeyGraceWindowDays: 30 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SvcValidationError);
      expect((error as SvcValidationError).details.map((d) => d.path)).toContain('signingKeyGraceWindowDays');
      await expect(
        admin.updateSecuritySettingsAsync({ ...SETTINGS, sessionIdleTimeoutMinutes: 1.5 }),
      ).rejects.toThrow(/sessionIdleTimeoutMinutes/);
      expect((await admin.getSecuritySettingsAsync()).refreshTokenGraceWindowSeconds).toBe(5);
      expect(await auditKinds()).toEqual([
        'admin.security_settings.updated',
        'admin.security_settings.updated',
      ]);
    });
  });

  describe('beside other records', () => {
    // Each test names organizations, addresses and clients no other test of the group uses: one app.
    beforeAll(open);
    afterAll(close);

    it('keeps slugs and memberships unique under concurrent creation', async () => {
      const orgs = await Promise.all(
        Array.from({ length: 6 }, () => admin.createOrganizationAsync({ name: 'Race' })),
      );
      expect(new Set(orgs.map((org) => org.slug))).toEqual(
        new Set(['race', 'race-2', 'race-3', 'race-4', 'race-5', 'race-6']),
      );
      const user = await admin.createUserAsync({ displayName: 'Ann', email: 'ann.race@example.com' });
      const org = orgs[0]!;
      const memberships = await Promise.all(
        ['member', 'admin', 'owner'].map((role) =>
          admin.createMembershipAsync({ organizationId: org.id, userId: user.id, role }),
        ),
      );
      expect(new Set(memberships.map((m) => m.id)).size).toBe(1);
      const users = await Promise.allSettled(
        ['bo@example.com', 'BO@example.com', ' bo@EXAMPLE.com'].map((email) =>
          admin.createUserAsync({ displayName: 'Bo', email }),
        ),
      );
      expect(users.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of users) {
        if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(SvcConflictError);
      }
    });

    it('lower-cases the primary domain and rejects invalid input with the field named', async () => {
      const org = await admin.createOrganizationAsync({ name: 'Acme', primaryDomain: ' Acme.EXAMPLE.com ' });
      expect(org.primaryDomain).toBe('acme.example.com');
      const error = await admin
        .createOrganizationAsync({ name: 'Bad', primaryDomain: 'not a domain' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SvcValidationError);
      expect((error as SvcValidationError).details.map((d) => d.path)).toEqual(['primaryDomain']);
      await expect(admin.createOrganizationAsync({ name: 'Bad', slug: 'Has Caps' })).rejects.toThrow(/slug/);
    });

    it('creates or promotes operators by email, idempotently', async () => {
      const existing = await admin.createUserAsync({ displayName: 'Ann', email: 'ann@example.com' });
      const promoted = await admin.setOperatorAsync(' ANN@example.com');
      expect(promoted).toMatchObject({ id: existing.id, isOperator: true });
      const created = await admin.setOperatorAsync('ops@example.com');
      expect(created).toMatchObject({
        email: 'ops@example.com',
        displayName: 'ops',
        isOperator: true,
        hasPassword: false,
      });
      expect((await admin.setOperatorAsync('OPS@example.com')).id).toBe(created.id);
      await expect(admin.setOperatorAsync('nope')).rejects.toBeInstanceOf(SvcValidationError);
    });

    it('checks that the organization and user exist and reactivates an existing membership', async () => {
      const org = await admin.createOrganizationAsync({ name: 'Acme' });
      const user = await admin.createUserAsync({ displayName: 'Ann', email: 'ann.membership@example.com' });
      await expect(
        admin.createMembershipAsync({ organizationId: 'org_missing', userId: user.id, role: 'member' }),
      ).rejects.toThrow(new SvcNotFoundError("Organization 'org_missing' was not found."));
      await expect(
        admin.createMembershipAsync({ organizationId: org.id, userId: 'usr_missing', role: 'member' }),
      ).rejects.toThrow(new SvcNotFoundError("User 'usr_missing' was not found."));
      const updates = await audited('admin.membership.updated');

      const membership = await admin.createMembershipAsync({
        organizationId: org.id,
        userId: user.id,
        role: ' Member ',
      });
      expect(membership).toMatchObject({
        organizationId: org.id,
        userId: user.id,
        role: 'member',
        active: true,
      });
      await db.updateTable('memberships').set({ active: 0 }).where('id', '=', membership.id).execute();
      expect(await admin.userHasMembershipAsync(user.id, org.id)).toBe(false);

      clock.advance(1000);
      const again = await admin.createMembershipAsync({
        organizationId: org.id,
        userId: user.id,
        role: 'admin',
      });
      expect(again).toEqual({ ...membership, role: 'admin', active: true });
      expect(await admin.userHasMembershipAsync(user.id, org.id)).toBe(true);
      expect(await audited('admin.membership.updated')).toBe(updates + 1);
    });

    it('lists the organizations of a user and answers membership questions', async () => {
      const zeta = await admin.createOrganizationAsync({ name: 'Zeta' });
      const alpha = await admin.createOrganizationAsync({ name: 'Alpha' });
      const closed = await admin.createOrganizationAsync({ name: 'Closed' });
      const user = await admin.createUserAsync({ displayName: 'Ann', email: 'ann.orgs@example.com' });
      const other = await admin.createUserAsync({ displayName: 'Bo', email: 'bo.orgs@example.com' });
      for (const [org, role] of [
        [zeta, 'member'],
        [alpha, 'owner'],
        [closed, 'admin'],
      ] as const) {
        await admin.createMembershipAsync({ organizationId: org.id, userId: user.id, role });
      }
      await db.updateTable('organizations').set({ active: 0 }).where('id', '=', closed.id).execute();

      expect(await admin.getUserOrganizationsAsync(user.id)).toEqual([
        { id: alpha.id, slug: 'alpha', name: 'Alpha', role: 'owner' },
        { id: zeta.id, slug: 'zeta', name: 'Zeta', role: 'member' },
      ]);
      expect(await admin.getUserOrganizationsAsync(other.id)).toEqual([]);
      expect(await admin.userHasMembershipAsync(user.id, zeta.id)).toBe(true);
      expect(await admin.userHasMembershipAsync(user.id, closed.id)).toBe(false);
      expect(await admin.userHasMembershipAsync(other.id, zeta.id)).toBe(false);
      expect(await admin.userHasMembershipAsync(user.id, 'org_missing')).toBe(false);
    });

    it('creates public clients with defaults and confidential ones with a secret returned once', async () => {
      const spa = await admin.createClientAsync({
        clientId: 'spa',
        name: 'SPA',
        audience: 'https://api.example.com',
        redirectUris: ['https://app.example.com/cb', 'https://app.example.com/cb'],
      });
      expect(svcClientSchema.strict().parse(spa)).toEqual(spa);
      expect(spa).toMatchObject({
        isFirstParty: false,
        tokenEndpointAuthMethod: 'none',
        redirectUris: ['https://app.example.com/cb'],
        allowedScopes: ['openid', 'profile', 'email'],
        allowedResources: [],
        allowDeviceAuthorization: false,
        allowClientCredentials: false,
      });
      const spaRow = await db
        .selectFrom('clients')
        .selectAll()
        .where('clientId', '=', 'spa')
        .executeTakeFirstOrThrow();
      expect(spaRow.clientSecretHash).toBeNull();

      const backend = await admin.createClientAsync({
        clientId: 'backend',
        name: 'Backend',
        audience: 'https://api.example.com',
        redirectUris: [],
        tokenEndpointAuthMethod: 'client_secret_basic',
        allowClientCredentials: true,
        allowedScopes: ['read', 'write', 'read'],
      });
      expect(backend.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(backend.allowedScopes).toEqual(['read', 'write']);
      const row = await db
        .selectFrom('clients')
        .selectAll()
        .where('clientId', '=', 'backend')
        .executeTakeFirstOrThrow();
      expect(row.clientSecretHash).toBe(sha256Hex(backend.clientSecret ?? ''));
      expect(JSON.stringify(row)).not.toContain(backend.clientSecret);
      const listed = await admin.listClientsAsync();
      expect(JSON.stringify(listed)).not.toContain(backend.clientSecret);
      const audit = await db.selectFrom('auditEvents').select('dataJson').execute();
      expect(JSON.stringify(audit)).not.toContain(backend.clientSecret);

      await expect(
        admin.createClientAsync({ clientId: 'spa', name: 'Again', audience: 'a', redirectUris: [] }),
      ).rejects.toBeInstanceOf(SvcConflictError);
      const publicCc = await admin
        .createClientAsync({
          clientId: 'cc',
          name: 'CC',
          audience: 'a',
          redirectUris: [],
          allowClientCredentials: true,
        })
        .catch((e: unknown) => e);
      expect((publicCc as SvcValidationError).details).toEqual([
        { path: 'allowClientCredentials', message: 'requires a confidential client' },
      ]);
      await expect(
        admin.createClientAsync({
          clientId: 'x',
          name: 'X',
          audience: 'a',
          redirectUris: [],
          allowedScopes: ['auth:internal'],
        }),
      ).rejects.toThrow(/allowedScopes\.0/);
    });
  });
});
