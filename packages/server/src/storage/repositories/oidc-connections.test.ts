import { afterEach, beforeEach, expect, it } from 'vitest';
import type { OidcConnectionRecord, OidcConnectionRepository } from '../../federation/oidc/repository.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { insertOrganizationRows } from '../../test-support/user-rows.js';
import { openDatabase, type DatabaseHandle } from '../database.js';
import { oidcConnectionRepository } from './oidc-connections.js';

const T0 = Date.UTC(2026, 10, 1);

/** A stored GitHub-shaped connection; tests override what they look at. */
function record(overrides: Partial<OidcConnectionRecord> = {}): OidcConnectionRecord {
  return {
    id: 'oidc_1',
    providerType: 'GitHub',
    displayName: 'GitHub',
    clientId: 'gh-client',
    clientSecretSealed: 'v1.iv.tag.body',
    allowedCallbackUris: ['https://id.example.com/svc/auth/oidc/callback'],
    useDiscovery: false,
    discoveryUrl: null,
    issuer: null,
    authorizationEndpoint: null,
    tokenEndpoint: null,
    userInfoEndpoint: null,
    jwksUri: null,
    microsoftTenant: null,
    scopes: [],
    claimMapping: null,
    clientAuthMethod: 'ClientSecretPost',
    useUserInfo: null,
    appleTeamId: null,
    appleKeyId: null,
    applePrivateKeySealed: null,
    logoDataUrl: null,
    organizationId: null,
    enabled: true,
    owner: 'dashboard',
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Every column of every kind: nulls, 0/1 flags, a nullable flag, JSON lists and the claim mapping. */
const FULL: OidcConnectionRecord = record({
  id: 'oidc_full',
  providerType: 'Custom',
  displayName: 'Corporate IdP',
  useDiscovery: false,
  issuer: 'https://idp.example.com',
  authorizationEndpoint: 'https://idp.example.com/authorize',
  tokenEndpoint: 'https://idp.example.com/token',
  userInfoEndpoint: 'https://idp.example.com/userinfo',
  jwksUri: 'https://idp.example.com/jwks',
  scopes: ['openid', 'email', 'groups'],
  claimMapping: { subject: 'oid', email: 'upn' },
  clientAuthMethod: 'ClientSecretBasic',
  useUserInfo: false,
  logoDataUrl: 'data:image/png;base64,iVBORw0KGgo=',
  allowedCallbackUris: ['https://a.example.com/cb', 'http://localhost:3000/cb/oidc_full'],
});

/** The storage contract of OIDC connections (migrations 0018 and 0050), the same on SQLite and PostgreSQL. */
describeEachDatabase('OIDC connection storage', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let repository: OidcConnectionRepository;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    repository = oidcConnectionRepository(handle.db);
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('reads back every field as it was inserted', async () => {
    const apple = record({
      id: 'oidc_apple',
      providerType: 'Apple',
      clientSecretSealed: null,
      appleTeamId: 'TEAM123456',
      appleKeyId: 'KEY1234567',
      applePrivateKeySealed: 'v1.a.b.c',
      useUserInfo: true,
      microsoftTenant: null,
      enabled: false,
      owner: 'code',
      createdAt: T0 + 1,
      updatedAt: T0 + 2,
    });
    for (const connection of [FULL, apple, record()]) {
      await repository.insert(connection);
      expect(await repository.findById(connection.id)).toEqual(connection);
    }
    expect(await repository.findById('oidc_unknown')).toBeUndefined();
  });

  it('keeps an organization reference', async () => {
    await insertOrganizationRows(handle.db, ['org_1'], T0);
    await repository.insert(record({ organizationId: 'org_1' }));
    expect((await repository.findById('oidc_1'))?.organizationId).toBe('org_1');
    await expect(
      repository.insert(record({ id: 'oidc_2', organizationId: 'org_missing' })),
    ).rejects.toThrow();
  });

  it('lists newest first in keyset pages', async () => {
    for (let i = 1; i <= 5; i++) {
      await repository.insert(record({ id: `oidc_${i}`, createdAt: T0 + (i % 3) * 1000 }));
    }
    const first = await repository.list({ limit: 2 });
    const second = await repository.list({ limit: 2, cursor: first.nextCursor ?? '' });
    const third = await repository.list({ limit: 2, cursor: second.nextCursor ?? '' });
    expect([first, second, third].flatMap((page) => page.data.map((c) => c.id))).toEqual([
      'oidc_5',
      'oidc_2',
      'oidc_4',
      'oidc_1',
      'oidc_3',
    ]);
    expect(third.nextCursor).toBeNull();
  });

  it('lists the enabled connections oldest first', async () => {
    await repository.insert(record({ id: 'oidc_b', createdAt: T0 + 2 }));
    await repository.insert(record({ id: 'oidc_off', enabled: false, createdAt: T0 }));
    await repository.insert(record({ id: 'oidc_a', createdAt: T0 + 1 }));
    expect((await repository.listEnabled()).map((c) => c.id)).toEqual(['oidc_a', 'oidc_b']);
  });

  it('updates what a change names, keeps the rest, and sets null where the change says null', async () => {
    await repository.insert(FULL);
    const updated = await repository.update(
      FULL.id,
      {
        displayName: 'Renamed',
        claimMapping: null,
        useUserInfo: null,
        issuer: null,
        enabled: false,
        scopes: [],
      },
      T0 + 60_000,
    );
    const expected = {
      ...FULL,
      displayName: 'Renamed',
      claimMapping: null,
      useUserInfo: null,
      issuer: null,
      enabled: false,
      scopes: [],
      updatedAt: T0 + 60_000,
    };
    expect(updated).toEqual(expected);
    expect(await repository.findById(FULL.id)).toEqual(expected);
    expect(await repository.update('oidc_unknown', { enabled: true }, T0)).toBeUndefined();
  });

  it('deletes a connection and answers what it deleted', async () => {
    await repository.insert(FULL);
    expect(await repository.delete(FULL.id)).toEqual(FULL);
    expect(await repository.findById(FULL.id)).toBeUndefined();
    expect(await repository.delete(FULL.id)).toBeUndefined();
  });
});
