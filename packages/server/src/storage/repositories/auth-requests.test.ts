import { beforeEach, expect, it } from 'vitest';
import type { AuthRequestRecord, AuthRequestStore } from '../../signin/flow/repository.js';
import { authRequestRecord } from '../../test-support/auth-request-record.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { useFreshMigratedDatabase } from '../../test-support/fresh-database.js';
import { FakeClock } from '../../test-support/fake-clock.js';
import { insertOrganizationRows, insertUserRows } from '../../test-support/user-rows.js';
import { authRequestRepository } from './auth-requests.js';

describeEachDatabase('auth request repository', (kind) => {
  // Deleting expired requests counts the whole table: each test has a database of its own.
  const database = useFreshMigratedDatabase(kind);
  let clock: FakeClock;
  let store: AuthRequestStore;
  const userId = 'usr_ada';
  const organizationId = 'org_acme';
  const now = () => clock.now();

  beforeEach(async () => {
    clock = new FakeClock();
    store = authRequestRepository(database.db);
    await insertUserRows(database.db, [userId], now());
    await insertOrganizationRows(database.db, [organizationId], now());
  });

  const request = (overrides: Partial<AuthRequestRecord> = {}) => authRequestRecord(now(), overrides);

  it('stores every field and reads it back exactly, nulls included', async () => {
    const full = request({
      challenge: { kind: 'email_otp', hash: 'c'.repeat(64), target: 'a***@example.com' },
      invitationId: 'inv_bound',
      sessionless: true,
    });
    const sparse = request({
      state: null,
      requestedScopes: [],
      grantedScopes: [],
      resource: null,
      nonce: null,
      prompt: [],
      maxAge: null,
      loginHint: null,
      view: null,
      uiContext: null,
    });
    // A device request: no redirect URI, PKCE or state, the sealed user code instead.
    const device = request({
      redirectUri: '',
      state: null,
      codeChallenge: '',
      codeChallengeMethod: '',
      prompt: [],
      maxAge: null,
      nonce: null,
      sealedDeviceUserCode: `v1.${'i'.repeat(16)}.${'t'.repeat(22)}.${'b'.repeat(12)}`,
    });
    await store.insert(full);
    await store.insert(sparse);
    await store.insert(device);
    expect(await store.find(full.id)).toEqual(full);
    expect(await store.find(sparse.id)).toEqual(sparse);
    expect(await store.find(device.id)).toEqual(device);
    expect(await store.find('azr_unknown')).toBeUndefined();
  });

  it('keeps the sealed user code of a device request through every transition', async () => {
    const device = request({ sealedDeviceUserCode: 'v1.sealed' });
    await store.insert(device);
    const identity = { userId, organizationId, amr: ['pwd'], authTime: now() };
    expect(
      await store.transition(device.id, 'pending', { status: 'device_approval', ...identity }, now()),
    ).toBe(true);
    expect(await store.transition(device.id, 'device_approval', { status: 'completed' }, now())).toBe(true);
    expect(await store.find(device.id)).toMatchObject({
      status: 'completed',
      completedAt: now(),
      sealedDeviceUserCode: 'v1.sealed',
    });
  });

  it('moves a request only from the expected status, sets progress fields and completedAt when terminal', async () => {
    const record = request();
    await store.insert(record);
    clock.advance(1000);
    expect(await store.transition(record.id, 'consent', { status: 'completed' }, now())).toBe(false);
    expect(
      await store.transition(record.id, 'pending', { status: 'pending', email: 'ada@example.com' }, now()),
    ).toBe(true);
    const identity = { userId, organizationId, amr: ['pwd'], authTime: now() - 5 };
    expect(await store.transition(record.id, 'pending', { status: 'consent', ...identity }, now())).toBe(
      true,
    );
    expect(await store.find(record.id)).toEqual({
      ...record,
      status: 'consent',
      email: 'ada@example.com',
      ...identity,
      updatedAt: now(),
    });
    clock.advance(1000);
    expect(await store.transition(record.id, 'consent', { status: 'completed' }, now())).toBe(true);
    const completed = await store.find(record.id);
    expect(completed).toMatchObject({
      status: 'completed',
      completedAt: now(),
      updatedAt: now(),
      ...identity,
    });
    // Single use: the same transition again changes nothing.
    expect(await store.transition(record.id, 'consent', { status: 'completed' }, now())).toBe(false);
    // Fields can be cleared (a new identification forgets who signed in).
    const other = request();
    await store.insert(other);
    await store.transition(other.id, 'pending', { status: 'organization_selection', ...identity }, now());
    await store.transition(
      other.id,
      'organization_selection',
      { status: 'pending', userId: null, organizationId: null, amr: null, authTime: null },
      now(),
    );
    expect(await store.find(other.id)).toMatchObject({
      userId: null,
      organizationId: null,
      amr: null,
      authTime: null,
    });
    // A pending request's challenge is set and cleared with the same conditional update.
    const challenge = { kind: 'phone_otp', hash: 'd'.repeat(64), target: '+1 ••• ••• 0100' } as const;
    await store.transition(other.id, 'pending', { status: 'pending', challenge }, now());
    expect((await store.find(other.id))?.challenge).toEqual(challenge);
    await store.transition(other.id, 'pending', { status: 'pending', challenge: null }, now());
    expect((await store.find(other.id))?.challenge).toBeNull();
  });

  it('refuses transitions of an expired request', async () => {
    const record = request({ expiresAt: now() + 1000 });
    await store.insert(record);
    clock.advance(1000);
    expect(await store.transition(record.id, 'pending', { status: 'denied' }, now())).toBe(false);
    expect((await store.find(record.id))?.status).toBe('pending');
  });

  it('lets exactly one of concurrent completions win', async () => {
    const record = request({ status: 'consent', userId, amr: ['pwd'], authTime: now() });
    await store.insert(record);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => store.transition(record.id, 'consent', { status: 'completed' }, now())),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('deletes requests that expired before a time', async () => {
    const old = request({ expiresAt: now() - 1 });
    const live = request();
    await store.insert(old);
    await store.insert(live);
    expect(await store.deleteExpired(now())).toBe(1);
    expect(await store.find(old.id)).toBeUndefined();
    expect(await store.find(live.id)).toBeDefined();
  });
});
