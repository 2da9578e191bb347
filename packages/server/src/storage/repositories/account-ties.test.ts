import { beforeAll, expect, it } from 'vitest';
import type { AccountTieRepository } from '../../directory/account-ties-repository.js';
import { describeEachDatabase, useMigratedDatabase } from '../../test-support/databases.js';
import { insertConnectionRow } from '../../test-support/federation/connections.js';
import {
  insertOrganizationRows,
  insertScimConnectionRow,
  insertUserRows,
} from '../../test-support/user-rows.js';
import { deleteExpiredRows, deleteExpiredSessions } from '../expired-rows.js';
import { accountTieRepository } from './account-ties.js';
import { scimUserRepository } from './scim-users.js';

const T0 = Date.UTC(2026, 10, 1);
const SCOPE = { organizationId: 'org_home', scimConnectionId: 'scim_home' };

/** Each tie an account may have beyond one SCIM connection, found alone, on both databases. */
describeEachDatabase('account ties', (kind) => {
  const database = useMigratedDatabase(kind);
  let ties: AccountTieRepository;

  beforeAll(async () => {
    const { db } = database;
    ties = accountTieRepository(db);
    await insertOrganizationRows(db, ['org_home', 'org_other'], T0);
    await insertScimConnectionRow(db, 'scim_home', 'org_home', T0);
    await insertScimConnectionRow(db, 'scim_other', 'org_other', T0);
    await insertConnectionRow(db, 'oidc_1');
    await db
      .insertInto('ssoConnections')
      .values({
        id: 'sso_1',
        organizationId: 'org_other',
        displayName: 'sso',
        primaryDomain: null,
        autoProvisionUsers: 1,
        autoLinkByEmail: 0,
        enabled: 1,
        spEntityId: 'https://svc.test/sso_1',
        acsUrl: 'https://svc.test/acs/sso_1',
        idpEntityId: null,
        idpSsoUrl: null,
        idpSigningCertificatesJson: '[]',
        metadataImportedAt: null,
        createdAt: T0,
        updatedAt: T0,
      })
      .execute();
    await insertUserRows(
      db,
      [
        'usr_bare',
        'usr_home',
        'usr_operator',
        'usr_password',
        'usr_phone',
        'usr_totp',
        'usr_oidc',
        'usr_saml',
        'usr_session',
        'usr_browser',
        'usr_consent',
        'usr_member',
        'usr_scim',
      ],
      T0,
    );
    await db.updateTable('users').set({ isOperator: 1 }).where('id', '=', 'usr_operator').execute();
    await db.updateTable('users').set({ passwordHash: 'x' }).where('id', '=', 'usr_password').execute();
    await db.updateTable('users').set({ phoneE164: '+15550100' }).where('id', '=', 'usr_phone').execute();
    await db
      .insertInto('mfaAuthenticators')
      .values({
        id: 'mfa_1',
        userId: 'usr_totp',
        kind: 'totp',
        label: 'phone',
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
      .insertInto('oidcIdentities')
      .values({
        id: 'oid_1',
        connectionId: 'oidc_1',
        subject: 's',
        userId: 'usr_oidc',
        email: null,
        emailVerified: 0,
        createdAt: T0,
        lastUsedAt: T0,
      })
      .execute();
    await db
      .insertInto('samlIdentities')
      .values({
        id: 'sid_1',
        connectionId: 'sso_1',
        nameId: 'n',
        userId: 'usr_saml',
        email: 'n@x.test',
        createdAt: T0,
        lastUsedAt: T0,
      })
      .execute();
    // A revoked token session still shows the person signed in.
    await db
      .insertInto('sessions')
      .values({
        id: 'ses_1',
        userId: 'usr_session',
        clientId: 'app',
        organizationId: 'org_home',
        grantedScopesJson: null,
        resource: null,
        amrJson: '["pwd"]',
        authTime: T0,
        userAgent: null,
        ipAddress: null,
        createdAt: T0,
        lastSeenAt: T0,
        idleExpiresAt: T0 + 1,
        absoluteExpiresAt: T0 + 1,
        revokedAt: T0,
        revokedReason: 'logout',
      })
      .execute();
    await db
      .insertInto('browserSessions')
      .values({
        id: 'bs_1',
        tokenHash: 'h',
        userId: 'usr_browser',
        amrJson: '["email"]',
        authTime: T0,
        createdAt: T0,
        expiresAt: T0 + 1,
        revokedAt: null,
      })
      .execute();
    await db
      .insertInto('consentGrants')
      .values({
        id: 'cg_1',
        userId: 'usr_consent',
        clientId: 'app',
        scopesJson: '["openid"]',
        grantedAt: T0,
        updatedAt: T0,
        revokedAt: null,
      })
      .execute();
    const membership = (id: string, userId: string, organizationId: string) =>
      db
        .insertInto('memberships')
        .values({ id, organizationId, userId, role: 'member', active: 0, createdAt: T0, updatedAt: T0 })
        .execute();
    await membership('mem_1', 'usr_home', 'org_home');
    await membership('mem_2', 'usr_member', 'org_other');
    const scimUsers = scimUserRepository(db);
    for (const [connectionId, userId] of [
      ['scim_home', 'usr_home'],
      ['scim_other', 'usr_scim'],
    ] as const) {
      await scimUsers.insert(
        {
          connectionId,
          userId,
          userName: userId,
          externalId: null,
          active: true,
          attributes: {},
          createdUser: true,
          createdAt: T0,
          updatedAt: T0,
        },
        [],
      );
    }
  });
  it('names each tie beyond the scope, and none for its own membership and record', async () => {
    const of = (userId: string) => ties.tiesOf(userId, SCOPE);
    expect(await of('usr_bare')).toEqual([]);
    expect(await of('usr_home')).toEqual([]);
    expect(await of('usr_unknown')).toEqual([]);
    expect(await of('usr_operator')).toEqual(['operator']);
    for (const userId of ['usr_password', 'usr_phone', 'usr_totp']) {
      expect(await of(userId), userId).toEqual(['credential']);
    }
    expect(await of('usr_oidc')).toEqual(['identity']);
    expect(await of('usr_saml')).toEqual(['identity']);
    for (const userId of ['usr_session', 'usr_browser', 'usr_consent']) {
      expect(await of(userId), userId).toEqual(['session']);
    }
    expect(await of('usr_member')).toEqual(['membership']);
    expect(await of('usr_scim')).toEqual(['directory']);
    // Seen from the other connection, the home organization's membership and record are ties.
    expect(
      await ties.tiesOf('usr_home', { organizationId: 'org_other', scimConnectionId: 'scim_other' }),
    ).toEqual(['membership', 'directory']);
  });

  it('keeps a session tie after housekeeping deleted the sessions', async () => {
    const { db } = database;
    const deleted = await deleteExpiredSessions(db, T0 + 2);
    const deletedRows = await deleteExpiredRows(db, T0 + 2);
    expect([deleted.sessions, deletedRows.browserSessions]).toEqual([1, 1]);
    for (const userId of ['usr_session', 'usr_browser']) {
      expect(await ties.tiesOf(userId, SCOPE), userId).toEqual(['session']);
    }
    expect(await ties.tiesOf('usr_bare', SCOPE)).toEqual([]);
  });
});
