import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ClientRecord } from '../../directory/repository.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { SvcConfigError, SvcPublicAuthError } from '../../kernel/errors.js';
import { HARNESS_ISSUER } from '../../test-support/auth-harness.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import {
  createDeviceHarness,
  deviceAuthorizationsWith,
  type DeviceHarness,
} from '../../test-support/device-harness.js';
import { OAuthError } from '../errors.js';

const FILES = 'https://files.example.com';

/** The error a promise rejects with (undefined when it resolves). */
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describeEachDatabase('device authorizations: start, resolve, approve, deny', (kind) => {
  let h: DeviceHarness;
  let client: ClientRecord;
  let userId: string;

  // One app for the file: each test has a client and a user of its own.
  beforeAll(async () => {
    h = await createDeviceHarness(kind, {
      rateLimits: { deviceStart: { identifier: { limit: 3 } } },
    });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = await h.deviceClient({ name: 'Living room TV', allowedResources: [FILES] });
    userId = (await h.given.user()).id;
  });

  /** The requests of the test's client (or of the clients named). */
  const rows = (...of: ClientRecord[]) =>
    h.db
      .selectFrom('deviceAuthorizations')
      .selectAll()
      .where(
        'clientId',
        'in',
        (of.length === 0 ? [client] : of).map((c) => c.clientId),
      )
      .execute();
  const clientAuditKinds = () => h.auditKinds({ clientId: client.clientId });
  const approve = (userCode: string, fields: { organizationId?: string | null; user?: string } = {}) =>
    h.devices.approve({
      userCode,
      userId: fields.user ?? userId,
      organizationId: fields.organizationId ?? null,
      amr: ['pwd'],
      authTime: h.clock.now(),
    });

  it('starts a pending request: RFC 8628 response, hashed codes, the granted scope and the bound resource', async () => {
    const started = await h.start(client, 'openid profile admin:everything', [FILES]);
    expect(started.deviceCode).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(started.userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started).toMatchObject({
      verificationUri: `${HARNESS_ISSUER}/device`,
      verificationUriComplete: `${HARNESS_ISSUER}/device?user_code=${started.userCode}`,
      expiresIn: 900,
      interval: 5,
      expiresAt: h.clock.now() + 900_000,
    });

    const [row, ...more] = await rows();
    expect(more).toEqual([]);
    expect(row).toMatchObject({
      deviceCodeHash: sha256Hex(started.deviceCode),
      userCodeHash: sha256Hex(started.userCode.replace('-', '')),
      clientId: client.clientId,
      scopeJson: JSON.stringify(['openid', 'profile']),
      resource: FILES,
      status: 'pending',
      intervalSeconds: 5,
      lastPolledAt: null,
      userId: null,
    });
    // Neither code is stored or audited in the clear.
    const audit = await h.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('clientId', '=', client.clientId)
      .execute();
    for (const secret of [started.deviceCode, started.userCode, started.userCode.replace('-', '')]) {
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(JSON.stringify(audit)).not.toContain(secret);
    }
    expect(audit.map((event) => event.kind)).toContain('device.authorization.started');
  });

  it('grants nothing without a scope, and no two live requests share a user code', async () => {
    const none = await h.devices.start({ client, scope: undefined, resources: [], ipAddress: null });
    expect(await h.devices.resolve(none.userCode)).toMatchObject({ scopes: [], resource: null });
    const other = await h.start(client);
    expect(other.userCode).not.toBe(none.userCode);
    expect(other.deviceCode).not.toBe(none.deviceCode);
  });

  it('refuses a client that does not allow the grant, an inactive one, and a resource it may not have', async () => {
    const plain = (await h.given.client()).record;
    const refusals = [
      [h.start(plain), 'unauthorized_client'],
      [h.start({ ...client, active: false }), 'invalid_client'],
      [h.start(client, 'openid', ['https://elsewhere.example.com']), 'invalid_target'],
      [h.start(client, 'openid', [FILES, client.audience]), 'invalid_target'],
      [h.start(client, 'openid', ['not a uri']), 'invalid_target'],
    ] as const;
    for (const [attempt, code] of refusals) {
      const error = await errorOf(attempt);
      expect(error).toBeInstanceOf(OAuthError);
      expect((error as OAuthError).code).toBe(code);
    }
    expect(await rows(client, plain)).toEqual([]);
  });

  it('limits starts per client and IP address: slow_down once the window is full', async () => {
    for (let i = 0; i < 3; i += 1) await h.start(client);
    const error = await errorOf(h.start(client));
    expect(error).toMatchObject({ code: 'slow_down', status: 400 });
    // Another address, or another client from the same address, is counted apart.
    await h.devices.start({ client, scope: 'openid', resources: [], ipAddress: '198.51.100.7' });
    const another = await h.deviceClient();
    await h.start(another);
    expect(await rows(client, another)).toHaveLength(5);
  });

  it('takes its lifetimes as options, and refuses ones that are not whole seconds', async () => {
    const other = deviceAuthorizationsWith(h, { lifetimeSeconds: 120, intervalSeconds: 2 });
    const started = await other.start({ client, scope: 'openid', resources: [], ipAddress: '192.0.2.1' });
    expect(started).toMatchObject({ expiresIn: 120, interval: 2 });
    for (const device of [{ lifetimeSeconds: 0 }, { intervalSeconds: 1.5 }]) {
      expect(() => deviceAuthorizationsWith(h, device)).toThrow(SvcConfigError);
    }
  });

  it('resolves a typed user code in any form, and says nothing about a code that names no request', async () => {
    const started = await h.start(client, 'openid email', [FILES]);
    const expected = {
      clientId: client.clientId,
      clientName: 'Living room TV',
      scopes: ['openid', 'email'],
      resource: FILES,
      userCode: started.userCode,
      expiresAt: started.expiresAt,
      status: 'pending',
    };
    for (const typed of [
      started.userCode,
      started.userCode.toLowerCase(),
      started.userCode.replace('-', ' '),
    ]) {
      expect(await h.devices.resolve(typed)).toEqual(expected);
    }
    expect(await h.devices.resolve('BCDF-GHJK')).toBeNull();
    expect(await h.devices.resolve('not a code')).toBeNull();
    // Resolving changes nothing.
    expect((await rows())[0]).toMatchObject({ status: 'pending', lastPolledAt: null });
  });

  it('approves once: the approval records who, and every later decision is already_decided', async () => {
    const started = await h.start(client);
    const organizationId = (await h.given.organization()).id;
    await h.given.membership(organizationId, userId);
    h.clock.advance(30_000);
    expect(await approve(started.userCode.toLowerCase(), { organizationId })).toBe('approved');
    expect((await rows())[0]).toMatchObject({
      status: 'approved',
      userId,
      organizationId,
      amrJson: '["pwd"]',
      authTime: h.clock.now(),
      decidedAt: h.clock.now(),
    });
    expect(await h.devices.resolve(started.userCode)).toMatchObject({ status: 'approved' });
    expect(await approve(started.userCode)).toBe('already_decided');
    expect(await h.devices.deny({ userCode: started.userCode, userId })).toBe('already_decided');
    expect(await clientAuditKinds()).toContain('device.authorization.approved');
  });

  it('denies: resolve shows denied and approval is refused', async () => {
    const started = await h.start(client);
    expect(await h.devices.deny({ userCode: started.userCode, userId: null })).toBe('denied');
    expect(await h.devices.resolve(started.userCode)).toMatchObject({ status: 'denied' });
    expect(await approve(started.userCode)).toBe('already_decided');
    expect(await clientAuditKinds()).toContain('device.authorization.denied');
  });

  it('expires after expires_in: resolve says expired and decisions are refused as expired', async () => {
    const started = await h.start(client);
    h.clock.advance(900_000 - 1);
    expect(await h.devices.resolve(started.userCode)).toMatchObject({ status: 'pending' });
    h.clock.advance(1);
    expect(await h.devices.resolve(started.userCode)).toMatchObject({ status: 'expired' });
    expect(await approve(started.userCode)).toBe('expired');
    expect(await h.devices.deny({ userCode: started.userCode, userId })).toBe('expired');
  });

  it('answers not_found for a malformed or unknown code', async () => {
    await h.start(client);
    expect(await approve('BCDF-GHJK')).toBe('not_found');
    expect(await approve('????')).toBe('not_found');
    expect(await h.devices.deny({ userCode: '', userId: null })).toBe('not_found');
  });

  it('refuses an approval by an inactive user or for an organization the user is not a member of', async () => {
    const started = await h.start(client);
    const foreign = (await h.given.organization()).id;
    // Started one at a time: a second call running beside the first would reject before anything awaits it.
    for (const attempt of [
      () => approve(started.userCode, { organizationId: foreign }),
      () => approve(started.userCode, { user: 'usr_missing' }),
    ]) {
      const error = await errorOf(attempt());
      expect(error).toBeInstanceOf(SvcPublicAuthError);
      expect(error).toMatchObject({ code: 'access_denied', status: 403 });
    }
    await h.db.updateTable('users').set({ active: 0 }).where('id', '=', userId).execute();
    expect(await errorOf(approve(started.userCode))).toMatchObject({ code: 'access_denied' });
    expect((await rows())[0]).toMatchObject({ status: 'pending', userId: null });
  });

  it('of 20 concurrent approvals and denials exactly one decides', async () => {
    const started = await h.start(client);
    const users = await Promise.all(Array.from({ length: 10 }, () => h.given.user()));
    const outcomes = await Promise.all(
      users.flatMap((user) => [
        approve(started.userCode, { user: user.id }),
        h.devices.deny({ userCode: started.userCode, userId: user.id }),
      ]),
    );
    const decided = outcomes.filter((outcome) => outcome !== 'already_decided');
    expect(decided).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'already_decided')).toHaveLength(19);
    const kinds = await clientAuditKinds();
    expect(
      kinds.filter(
        (kind) => kind === 'device.authorization.approved' || kind === 'device.authorization.denied',
      ),
    ).toHaveLength(1);
  });
});
