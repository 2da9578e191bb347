import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CalendarConsentStates, CALENDAR_CONSENT_LIFETIME_MS } from '../../calendar/consent-states.js';
import type { CalendarConnectionRecord, CalendarConnectionRepository } from '../../calendar/repository.js';
import { SecretBox } from '../../kernel/crypto.js';
import { createTestDatabase, describeEachDatabase, type TestDatabase } from '../../test-support/databases.js';
import { insertUserRows } from '../../test-support/user-rows.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { insertConnectionRow } from '../../test-support/federation/connections.js';
import { openDatabase, type DatabaseHandle } from '../database.js';
import { deleteExpiredRows } from '../expired-rows.js';
import { calendarConnectionRepository } from './calendar-connections.js';
import { calendarConsentStateRepository } from './calendar-consent-states.js';

const T0 = Date.UTC(2026, 10, 1);

function connection(overrides: Partial<CalendarConnectionRecord> = {}): CalendarConnectionRecord {
  return {
    id: 'cal_1',
    userId: 'usr_1',
    connectionId: 'oidc_1',
    providerType: 'Google',
    accountSubject: 'sub-1',
    accountIssuer: 'https://accounts.google.com',
    accountEmail: 'ann@gmail.example',
    scopes: ['openid', 'https://www.googleapis.com/auth/calendar.events'],
    tokensSealed: 'v1.sealed',
    offlineAccess: true,
    accessTokenExpiresAt: T0 + 3_600_000,
    status: 'active',
    version: 1,
    createdAt: T0,
    updatedAt: T0,
    lastRefreshedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

const TOKENS = {
  tokensSealed: 'v1.refreshed',
  offlineAccess: true,
  accessTokenExpiresAt: T0 + 7_200_000,
  scopes: ['openid'],
};

/** The storage of calendar connections and consents in flight (migration 0021), the same on both databases. */
describeEachDatabase('calendar connection storage', (kind) => {
  let testDb: TestDatabase;
  let handle: DatabaseHandle;
  let repository: CalendarConnectionRepository;

  beforeEach(async () => {
    testDb = await createTestDatabase(kind, 'migrated');
    handle = openDatabase(testDb.target);
    repository = calendarConnectionRepository(handle.db);
    await insertUserRows(handle.db, ['usr_1', 'usr_2'], T0);
    await insertConnectionRow(handle.db, 'oidc_1', 'Google');
    await insertConnectionRow(handle.db, 'oidc_2', 'Microsoft');
  });
  afterEach(async () => {
    await handle.close();
    await testDb.drop();
  });

  it('keeps one connection per user, provider connection and account', async () => {
    expect(await repository.insert(connection())).toBe(true);
    expect(await repository.insert(connection({ id: 'cal_2' }))).toBe(false);
    expect(await repository.insert(connection({ id: 'cal_3', accountSubject: 'sub-2' }))).toBe(true);
    expect(await repository.insert(connection({ id: 'cal_4', userId: 'usr_2' }))).toBe(true);
    expect(await repository.findById('cal_1')).toEqual(connection());
    expect((await repository.findByAccount('usr_1', 'oidc_1', 'sub-2'))?.id).toBe('cal_3');
    expect(await repository.findByAccount('usr_1', 'oidc_2', 'sub-1')).toBeUndefined();
  });

  it('stores a refresh only over the version it read; a revocation or reconnection moves the version', async () => {
    await repository.insert(connection());
    expect(await repository.storeRefreshed('cal_1', 1, TOKENS, T0 + 1)).toBe(true);
    expect(await repository.storeRefreshed('cal_1', 1, TOKENS, T0 + 2)).toBe(false);
    expect(await repository.findById('cal_1')).toMatchObject({
      version: 2,
      tokensSealed: 'v1.refreshed',
      scopes: ['openid'],
      lastRefreshedAt: T0 + 1,
    });

    const revoked = await repository.revoke('cal_1', T0 + 3);
    expect(revoked).toMatchObject({
      status: 'revoked',
      tokensSealed: null,
      offlineAccess: false,
      version: 3,
    });
    // A refresh that read the row before the revocation cannot bring its tokens back.
    expect(await repository.storeRefreshed('cal_1', 2, TOKENS, T0 + 4)).toBe(false);
    expect((await repository.findById('cal_1'))?.tokensSealed).toBeNull();

    const back = await repository.reconnect(
      'cal_1',
      { ...TOKENS, accountIssuer: 'https://accounts.google.com', accountEmail: 'new@gmail.example' },
      T0 + 5,
    );
    expect(back).toMatchObject({
      status: 'active',
      version: 4,
      revokedAt: null,
      accountEmail: 'new@gmail.example',
    });
    expect(
      await repository.reconnect('cal_unknown', { ...TOKENS, accountIssuer: 'x', accountEmail: null }, T0),
    ).toBeUndefined();
  });

  it('marks an active connection for a new consent without moving its version', async () => {
    await repository.insert(connection());
    expect(await repository.markReauthorizationRequired('cal_1', 2, T0 + 1)).toBe(false);
    expect(await repository.markReauthorizationRequired('cal_1', 1, T0 + 1)).toBe(true);
    expect(await repository.markReauthorizationRequired('cal_1', 1, T0 + 2)).toBe(false);
    expect(await repository.findById('cal_1')).toMatchObject({
      status: 'reauthorization_required',
      version: 1,
    });
    // A refresh that succeeded meanwhile still lands, and the connection is active again.
    expect(await repository.storeRefreshed('cal_1', 1, TOKENS, T0 + 3)).toBe(true);
    expect(await repository.findById('cal_1')).toMatchObject({ status: 'active', version: 2 });
  });

  it('lists newest first in keyset pages, optionally one user’s', async () => {
    for (let n = 1; n <= 5; n++) {
      await repository.insert(
        connection({
          id: `cal_${n}`,
          accountSubject: `sub-${n}`,
          userId: n % 2 === 0 ? 'usr_2' : 'usr_1',
          createdAt: T0 + n,
        }),
      );
    }
    const first = await repository.list({ limit: 2 });
    expect(first.data.map((row) => row.id)).toEqual(['cal_5', 'cal_4']);
    const second = await repository.list({ limit: 2, cursor: first.nextCursor ?? '' });
    expect(second.data.map((row) => row.id)).toEqual(['cal_3', 'cal_2']);
    const mine = await repository.list({ limit: 10, userId: 'usr_1' });
    expect(mine).toMatchObject({ nextCursor: null });
    expect(mine.data.map((row) => row.id)).toEqual(['cal_5', 'cal_3', 'cal_1']);
  });

  it('goes with its user and its provider connection', async () => {
    await repository.insert(connection());
    await repository.insert(connection({ id: 'cal_2', connectionId: 'oidc_2', providerType: 'Microsoft' }));
    await handle.db.deleteFrom('oidcConnections').where('id', '=', 'oidc_2').execute();
    expect(await repository.findById('cal_2')).toBeUndefined();
    await handle.db.deleteFrom('users').where('id', '=', 'usr_1').execute();
    expect(await repository.findById('cal_1')).toBeUndefined();
    expect(await repository.delete('cal_1')).toBeUndefined();
  });

  it('gives a consent in flight back once, sealed, until it expires; housekeeping deletes it', async () => {
    const clock = new FakeClock(T0);
    const states = new CalendarConsentStates({
      repository: calendarConsentStateRepository(handle.db),
      secrets: new SecretBox(randomBytes(32)),
      clock,
    });
    const inFlight = {
      userId: 'usr_1',
      clientId: 'app',
      connectionId: 'oidc_1',
      returnUri: 'https://app.example.com/settings',
      redirectUri: 'https://id.example.com/svc/auth/calendar/callback',
      scopes: ['https://www.googleapis.com/auth/calendar.events'],
      nonce: 'nonce-0123456789',
      codeVerifier: 'verifier-0123456789-0123456789-0123456789-abc',
      browserBinding: 'b'.repeat(64),
    };
    expect(await states.begin('state-a', inFlight)).toBe(T0 + CALENDAR_CONSENT_LIFETIME_MS);
    await states.begin('state-b', inFlight);
    const row = await handle.db.selectFrom('calendarConsentStates').selectAll().executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(inFlight.codeVerifier);
    expect(JSON.stringify(row)).not.toContain('state-a');

    const taken = await Promise.all([1, 2, 3].map(() => states.take('state-a')));
    expect(taken.filter((entry) => entry !== undefined)).toEqual([inFlight]);
    clock.advance(CALENDAR_CONSENT_LIFETIME_MS);
    expect(await states.take('state-b')).toBeUndefined();
    expect((await deleteExpiredRows(handle.db, clock.now() + 1)).calendarConsentStates).toBe(2);
  });
});
