import { afterEach, beforeEach, expect, it } from 'vitest';
import type {
  SamlIdentityRecord,
  SamlIdentityRepository,
  SamlSignInHandleRepository,
} from '../../federation/saml/sign-in-repository.js';
import type { SsoConnectionRepository } from '../../federation/saml/repository.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { insertOrganizationRows, insertUserRows } from '../../test-support/user-rows.js';
import { openDatabase, type DatabaseHandle, type Db } from '../database.js';
import { samlRequestCodeRepository } from './saml-request-codes.js';
import { samlIdentityRepository, samlSignInHandleRepository } from './saml-sign-ins.js';
import { ssoConnectionRepository } from './sso-connections.js';

const T0 = Date.UTC(2026, 10, 1);

function identity(overrides: Partial<SamlIdentityRecord> = {}): SamlIdentityRecord {
  return {
    id: 'sid_1',
    connectionId: 'sso_1',
    nameId: 'ada@acme.test',
    userId: 'usr_1',
    email: 'ada@acme.test',
    createdAt: T0,
    lastUsedAt: T0,
    ...overrides,
  };
}

async function insertConnection(
  db: Db,
  id: string,
  values: { enabled: boolean; primaryDomain: string | null; createdAt: number; organizationId?: string },
): Promise<void> {
  await db
    .insertInto('ssoConnections')
    .values({
      id,
      organizationId: values.organizationId ?? 'org_1',
      displayName: id,
      primaryDomain: values.primaryDomain,
      autoProvisionUsers: 1,
      autoLinkByEmail: 0,
      enabled: values.enabled ? 1 : 0,
      spEntityId: `https://svc.test/${id}`,
      acsUrl: `https://svc.test/acs/${id}`,
      idpEntityId: null,
      idpSsoUrl: null,
      idpSigningCertificatesJson: '[]',
      metadataImportedAt: null,
      createdAt: values.createdAt,
      updatedAt: values.createdAt,
    })
    .execute();
}

/** The storage contract of SAML sign-ins (migrations 0028, 0029), the same on both databases. */
describeEachDatabase('SAML sign-in storage', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let identities: SamlIdentityRepository;
  let handles: SamlSignInHandleRepository;
  let connections: SsoConnectionRepository;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    const db = handle.db;
    identities = samlIdentityRepository(db);
    handles = samlSignInHandleRepository(db);
    connections = ssoConnectionRepository(db);
    await insertOrganizationRows(db, ['org_1', 'org_2'], T0);
    await insertUserRows(db, ['usr_1', 'usr_2'], T0);
    await insertConnection(db, 'sso_1', { enabled: true, primaryDomain: 'acme.test', createdAt: T0 + 2 });
    await insertConnection(db, 'sso_2', { enabled: true, primaryDomain: 'acme.test', createdAt: T0 + 1 });
    await insertConnection(db, 'sso_3', { enabled: false, primaryDomain: 'other.test', createdAt: T0 });
    await insertConnection(db, 'sso_4', {
      enabled: true,
      primaryDomain: null,
      createdAt: T0 + 3,
      organizationId: 'org_2',
    });
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('links one (connection, NameID) pair once, and records each sign-in through it', async () => {
    expect(await identities.insert(identity())).toBe(true);
    expect(await identities.insert(identity({ id: 'sid_2', userId: 'usr_2' }))).toBe(false);
    expect(await identities.find('sso_1', 'ada@acme.test')).toEqual(identity());
    // The NameID is the IdP's: the same one at another connection is another identity.
    expect(await identities.find('sso_2', 'ada@acme.test')).toBeUndefined();
    expect(await identities.insert(identity({ id: 'sid_3', connectionId: 'sso_2' }))).toBe(true);
    await identities.touch('sid_1', 'ada.new@acme.test', T0 + 100);
    expect(await identities.find('sso_1', 'ada@acme.test')).toEqual(
      identity({ email: 'ada.new@acme.test', lastUsedAt: T0 + 100 }),
    );
    await handle.db.deleteFrom('users').where('id', '=', 'usr_1').execute();
    expect(await identities.find('sso_1', 'ada@acme.test')).toBeUndefined();
  });

  it('gives an accepted answer to the first taker only, and never after it expires', async () => {
    const record = {
      handleHash: 'h1',
      connectionId: 'sso_1',
      signInJson: '{"nameId":"ada"}',
      createdAt: T0,
      expiresAt: T0 + 1000,
    };
    await handles.insert(record);
    await handles.insert({ ...record, handleHash: 'h2' });
    const [first, second] = await Promise.all([handles.consume('h1', T0 + 1), handles.consume('h1', T0 + 1)]);
    expect([first, second].filter((taken) => taken !== undefined)).toEqual([record]);
    expect(await handles.consume('h2', T0 + 1000)).toBeUndefined();
    expect(await handles.consume('nope', T0)).toBeUndefined();
  });

  it("keeps a request-token code's bindings, finds it while live, and gives it to the first taker only", async () => {
    const codes = samlRequestCodeRepository(handle.db);
    const record = {
      codeHash: 'c1',
      clientId: 'web',
      redirectUri: 'https://app.example.com/callback',
      codeChallenge: 'x'.repeat(43),
      userId: 'usr_1',
      organizationId: 'org_1',
      connectionId: 'sso_1',
      authTime: T0,
      createdAt: T0,
      expiresAt: T0 + 1000,
    };
    await codes.insert(record);
    await codes.insert({ ...record, codeHash: 'c2' });
    // Finding does not use it up; the times come back as numbers on both databases.
    expect(await codes.findActive('c1', T0 + 1)).toEqual(record);
    expect(await codes.findActive('c1', T0 + 1)).toEqual(record);
    const [first, second] = await Promise.all([codes.consume('c1', T0 + 1), codes.consume('c1', T0 + 1)]);
    expect([first, second].filter((taken) => taken !== undefined)).toEqual([record]);
    expect(await codes.findActive('c1', T0 + 2)).toBeUndefined();
    expect(await codes.findActive('c2', T0 + 1000)).toBeUndefined();
    expect(await codes.consume('c2', T0 + 1000)).toBeUndefined();
    expect(await codes.findActive('nope', T0)).toBeUndefined();
  });

  it('finds the oldest enabled connection by primary domain or by organization', async () => {
    expect((await connections.findEnabledByPrimaryDomain('acme.test'))?.id).toBe('sso_2');
    expect(await connections.findEnabledByPrimaryDomain('other.test')).toBeUndefined();
    expect((await connections.findEnabledForOrganization('org_1'))?.id).toBe('sso_2');
    expect((await connections.findEnabledForOrganization('org_2'))?.id).toBe('sso_4');
    await connections.update('sso_4', { enabled: false }, T0 + 10);
    expect(await connections.findEnabledForOrganization('org_2')).toBeUndefined();
  });
});
