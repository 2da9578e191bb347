import { afterEach, beforeEach, expect, it } from 'vitest';
import type { AccountClaimStore } from '../../directory/account-claim-repository.js';
import { authRequestRecord } from '../../test-support/auth-request-record.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { insertConnectionRow, insertSsoConnectionRow } from '../../test-support/federation/connections.js';
import { insertOrganizationRows, insertUserRows } from '../../test-support/user-rows.js';
import { openDatabase, type DatabaseHandle, type Db } from '../database.js';
import { accountClaimRepository } from './account-claims.js';
import { authRequestRepository } from './auth-requests.js';

const T0 = Date.UTC(2026, 10, 1);
const LATER = T0 + 60_000;

/**
 * What each user holds: a password, an OIDC and a SAML identity, an authenticator with a recovery code,
 * and one sign-in in flight of each kind (pending token, MFA challenge, unredeemed code, request at
 * consent, approved device grant), beside a redeemed code and a pending request, which stay as they are;
 * and what it granted in the account's name: a consent and a calendar connection.
 */
async function seed(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ emailVerified: 0, passwordHash: `hash-${userId}` })
    .where('id', '=', userId)
    .execute();
  await db
    .insertInto('oidcIdentities')
    .values({
      id: `oid_${userId}`,
      connectionId: 'oidc_1',
      subject: `sub-${userId}`,
      userId,
      email: `${userId}@example.com`,
      emailVerified: 0,
      createdAt: T0,
      lastUsedAt: T0,
    })
    .execute();
  await db
    .insertInto('samlIdentities')
    .values({
      id: `sid_${userId}`,
      connectionId: 'sso_1',
      nameId: `name-${userId}`,
      userId,
      email: `${userId}@example.com`,
      createdAt: T0,
      lastUsedAt: T0,
    })
    .execute();
  await db
    .insertInto('mfaAuthenticators')
    .values({
      id: `mfa_${userId}`,
      userId,
      kind: 'totp',
      label: 'Phone',
      secretSealed: 'sealed',
      enrollmentTokenHash: null,
      challengeHash: null,
      enrollmentExpiresAt: null,
      confirmedAt: T0,
      lastUsedStep: null,
      createdAt: T0,
    })
    .execute();
  await db
    .insertInto('mfaRecoveryCodes')
    .values({ id: `rc_${userId}`, userId, codeHash: `rc-${userId}`, usedAt: null, createdAt: T0 })
    .execute();
  const inFlight = { userId, clientId: 'web-app', createdAt: T0, expiresAt: T0 + 600_000, consumedAt: null };
  await db
    .insertInto('pendingAuthTokens')
    .values({ ...inFlight, tokenHash: `pat-${userId}`, purpose: 'organization_selection', contextJson: '{}' })
    .execute();
  await db
    .insertInto('mfaChallenges')
    .values({
      ...inFlight,
      tokenHash: `mfc-${userId}`,
      organizationId: null,
      flow: 'direct',
      contextJson: '{}',
      enrollmentRequired: 1,
      methodsJson: '["totp"]',
    })
    .execute();
  const code = {
    ...inFlight,
    organizationId: null,
    redirectUri: 'https://app.example.com/callback',
    codeChallenge: null,
    scopeJson: '["openid"]',
    resource: null,
    nonce: null,
    authTime: T0,
    amrJson: '["pwd"]',
    sessionId: null,
  };
  await db
    .insertInto('authorizationCodes')
    .values([
      { ...code, codeHash: `code-${userId}` },
      { ...code, codeHash: `used-${userId}`, consumedAt: T0 },
    ])
    .execute();
  const requests = authRequestRepository(db);
  await requests.insert(authRequestRecord(T0, { id: `azr_consent_${userId}`, status: 'consent', userId }));
  await requests.insert(authRequestRecord(T0, { id: `azr_pending_${userId}`, status: 'pending', userId }));
  await db
    .insertInto('deviceAuthorizations')
    .values({
      deviceCodeHash: `device-${userId}`,
      userCodeHash: `user-code-${userId}`,
      clientId: 'tv-app',
      scopeJson: '["openid"]',
      resource: null,
      status: 'approved',
      intervalSeconds: 5,
      lastPolledAt: null,
      userId,
      organizationId: null,
      amrJson: '["pwd"]',
      authTime: T0,
      decidedAt: T0,
      consumedAt: null,
      sessionId: null,
      createdAt: T0,
      expiresAt: T0 + 600_000,
    })
    .execute();
  await db
    .insertInto('consentGrants')
    .values({
      id: `cg_${userId}`,
      userId,
      clientId: 'third-party',
      scopesJson: '["openid"]',
      grantedAt: T0,
      updatedAt: T0,
      revokedAt: null,
    })
    .execute();
  await db
    .insertInto('calendarConnections')
    .values({
      id: `cal_${userId}`,
      userId,
      connectionId: 'oidc_1',
      providerType: 'google',
      accountSubject: `calendar-${userId}`,
      accountIssuer: 'https://accounts.google.com',
      accountEmail: null,
      scopesJson: '[]',
      tokensSealed: 'sealed',
      offlineAccess: 1,
      accessTokenExpiresAt: null,
      status: 'active',
      version: 1,
      createdAt: T0,
      updatedAt: T0,
      lastRefreshedAt: null,
      revokedAt: null,
    })
    .execute();
}

/** What `userId` still holds, table by table. */
async function holdings(db: Db, userId: string) {
  const count = async (
    table:
      'oidcIdentities' | 'samlIdentities' | 'mfaAuthenticators' | 'mfaRecoveryCodes' | 'authorizationCodes',
  ) =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((e) => e.fn.countAll().as('n'))
          .where('userId', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const live = async (table: 'pendingAuthTokens' | 'mfaChallenges') =>
    (await db.selectFrom(table).select('consumedAt').where('userId', '=', userId).executeTakeFirstOrThrow())
      .consumedAt === null;
  const user = await db
    .selectFrom('users')
    .select(['emailVerified', 'passwordHash'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const requests = await db
    .selectFrom('authRequests')
    .select(['id', 'status'])
    .where('userId', '=', userId)
    .orderBy('id')
    .execute();
  const device = await db
    .selectFrom('deviceAuthorizations')
    .select('status')
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  const consent = await db
    .selectFrom('consentGrants')
    .select('revokedAt')
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  const calendar = await db
    .selectFrom('calendarConnections')
    .select(['status', 'tokensSealed'])
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    user: { emailVerified: user.emailVerified, passwordSet: user.passwordHash !== null },
    oidcIdentities: await count('oidcIdentities'),
    samlIdentities: await count('samlIdentities'),
    authenticators: await count('mfaAuthenticators'),
    recoveryCodes: await count('mfaRecoveryCodes'),
    codes: await count('authorizationCodes'),
    pendingTokenLive: await live('pendingAuthTokens'),
    mfaChallengeLive: await live('mfaChallenges'),
    requests: requests.map((request) => request.status),
    device: device.status,
    consentLive: consent.revokedAt === null,
    calendar: { status: calendar.status, tokensHeld: calendar.tokensSealed !== null },
  };
}

const UNTOUCHED = {
  user: { emailVerified: 0, passwordSet: true },
  oidcIdentities: 1,
  samlIdentities: 1,
  authenticators: 1,
  recoveryCodes: 1,
  codes: 2,
  pendingTokenLive: true,
  mfaChallengeLive: true,
  requests: ['consent', 'pending'],
  device: 'approved',
  consentLive: true,
  calendar: { status: 'active', tokensHeld: true },
};

/** The claim of an unverified account (directory/account-claim-repository.ts), the same on both databases. */
describeEachDatabase('claiming an unverified account in storage', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let store: AccountClaimStore;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    store = accountClaimRepository(handle.db);
    const db = handle.db;
    await insertUserRows(db, ['usr_1', 'usr_2'], T0);
    await insertOrganizationRows(db, ['org_1'], T0);
    await insertConnectionRow(db, 'oidc_1');
    await insertSsoConnectionRow(db, 'sso_1', 'org_1', T0);
    await seed(db, 'usr_1');
    await seed(db, 'usr_2');
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it("verifies the address and removes what the holder set up, ending the holder's sign-ins in flight", async () => {
    expect(await store.claim('usr_1', 'usr_1@EXAMPLE.COM', LATER)).toEqual({
      passwordRemoved: true,
      oidcIdentities: 1,
      samlIdentities: 1,
      authenticators: 1,
      recoveryCodes: 1,
      signInsInFlight: 5,
      consentGrants: 1,
      calendarConnections: 1,
    });
    expect(await holdings(handle.db, 'usr_1')).toEqual({
      user: { emailVerified: 1, passwordSet: false },
      oidcIdentities: 0,
      samlIdentities: 0,
      authenticators: 0,
      recoveryCodes: 0,
      // The redeemed code stays: a replay of it must still revoke what it created.
      codes: 1,
      pendingTokenLive: false,
      mfaChallengeLive: false,
      requests: ['denied', 'pending'],
      device: 'denied',
      consentLive: false,
      calendar: { status: 'revoked', tokensHeld: false },
    });
    expect(await holdings(handle.db, 'usr_2')).toEqual(UNTOUCHED);
  });

  it('changes nothing for a verified, deactivated, readdressed or unknown account', async () => {
    expect(await store.claim('usr_1', 'someone.else@EXAMPLE.COM', LATER)).toBeUndefined();
    await handle.db.updateTable('users').set({ active: 0 }).where('id', '=', 'usr_1').execute();
    expect(await store.claim('usr_1', 'usr_1@EXAMPLE.COM', LATER)).toBeUndefined();
    expect(await holdings(handle.db, 'usr_1')).toEqual(UNTOUCHED);

    await handle.db.updateTable('users').set({ emailVerified: 1 }).where('id', '=', 'usr_2').execute();
    expect(await store.claim('usr_2', 'usr_2@EXAMPLE.COM', LATER)).toBeUndefined();
    expect(await holdings(handle.db, 'usr_2')).toEqual({
      ...UNTOUCHED,
      user: { emailVerified: 1, passwordSet: true },
    });
    expect(await store.claim('usr_missing', 'usr_missing@EXAMPLE.COM', LATER)).toBeUndefined();
  });

  it('claims once when two proofs arrive together: the other changes nothing', async () => {
    const results = await Promise.all([
      store.claim('usr_1', 'usr_1@EXAMPLE.COM', LATER),
      store.claim('usr_1', 'usr_1@EXAMPLE.COM', LATER),
    ]);
    expect(results.filter((result) => result !== undefined)).toHaveLength(1);
    expect((await holdings(handle.db, 'usr_1')).oidcIdentities).toBe(0);
  });
});
