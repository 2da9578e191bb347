import { decodeJwt } from 'jose';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ClientRecord } from '../../directory/repository.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { createDeviceHarness, type DeviceHarness } from '../../test-support/device-harness.js';
import type { DevicePollResult } from './device-outcomes.js';

const FILES = 'https://files.example.com';

describeEachDatabase('device authorizations: polling', (kind) => {
  let h: DeviceHarness;
  let client: ClientRecord;
  let user: { id: string; email: string };

  // One app for the file: each test has a client and a user of its own.
  beforeAll(async () => {
    h = await createDeviceHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = await h.deviceClient({ allowedResources: [FILES] });
    user = await h.given.user({ displayName: 'Ann' });
  });

  const poll = (deviceCode: string, fields: { client?: ClientRecord; resource?: string | null } = {}) =>
    h.devices.poll({
      client: fields.client ?? client,
      deviceCode,
      resource: fields.resource ?? null,
      userAgent: 'tv/1.0',
      ipAddress: '192.0.2.1',
    });
  const approve = (userCode: string, organizationId: string | null = null) =>
    h.devices.approve({
      userCode,
      userId: user.id,
      organizationId,
      amr: ['pwd', 'mfa'],
      authTime: h.clock.now(),
    });
  const row = () =>
    h.db
      .selectFrom('deviceAuthorizations')
      .selectAll()
      .where('clientId', '=', client.clientId)
      .executeTakeFirstOrThrow();
  const statusOf = (result: DevicePollResult) => result.status;
  const SECOND = 1000;

  it('pending: authorization_pending at the interval, slow_down (+5 s each time) when faster', async () => {
    const { deviceCode } = await h.start(client);
    // The first poll is never too early.
    expect(await poll(deviceCode)).toEqual({
      status: 'authorization_pending',
      description: 'The user has not yet approved the request.',
    });
    h.clock.advance(4 * SECOND);
    expect(await poll(deviceCode)).toMatchObject({ status: 'slow_down', interval: 10 });
    // The new interval counts from the slow poll, and applies to every later poll.
    h.clock.advance(9 * SECOND);
    expect(await poll(deviceCode)).toMatchObject({ status: 'slow_down', interval: 15 });
    h.clock.advance(15 * SECOND);
    expect(statusOf(await poll(deviceCode))).toBe('authorization_pending');
    h.clock.advance(15 * SECOND);
    expect(statusOf(await poll(deviceCode))).toBe('authorization_pending');
    expect(await row()).toMatchObject({
      intervalSeconds: 15,
      lastPolledAt: h.clock.now(),
      status: 'pending',
    });
  });

  it('of concurrent polls of a pending request one is pending and the others slow down', async () => {
    const { deviceCode } = await h.start(client);
    const results = await Promise.all(Array.from({ length: 5 }, () => poll(deviceCode)));
    expect(results.filter((r) => r.status === 'authorization_pending')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'slow_down')).toHaveLength(4);
    expect((await row()).intervalSeconds).toBe(5 + 4 * 5);
  });

  it('approved: the next poll issues tokens once, bound to the resource, with an ID token; then invalid_grant', async () => {
    const started = await h.start(client, 'openid email', [FILES]);
    const organizationId = (await h.given.organization()).id;
    await h.given.membership(organizationId, user.id);
    expect(statusOf(await poll(started.deviceCode))).toBe('authorization_pending');
    const approvedAt = h.clock.now();
    await approve(started.userCode, organizationId);
    // Right after a pending poll: an approved request is not held back by the interval.
    h.clock.advance(SECOND);

    const result = await poll(started.deviceCode, { resource: FILES });
    if (result.status !== 'complete') throw new Error(`expected tokens, got ${result.status}`);
    const { tokens } = result;
    expect(tokens).toMatchObject({ clientId: client.clientId, organizationId, scope: ['openid', 'email'] });
    expect(decodeJwt(tokens.accessToken)).toMatchObject({
      sub: user.id,
      aud: FILES,
      client_id: client.clientId,
      scope: 'openid email',
      org_id: organizationId,
    });
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({
      sub: user.id,
      aud: client.clientId,
      email: user.email,
      amr: ['pwd', 'mfa'],
      auth_time: Math.floor(approvedAt / 1000),
    });
    expect(decodeJwt(tokens.idToken ?? '')).not.toHaveProperty('nonce');
    const session = await h.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', tokens.sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({
      userId: user.id,
      resource: FILES,
      userAgent: 'tv/1.0',
      ipAddress: '192.0.2.1',
    });
    expect(await row()).toMatchObject({
      status: 'consumed',
      consumedAt: h.clock.now(),
      sessionId: session.id,
    });
    expect(await h.devices.resolve(started.userCode)).toMatchObject({ status: 'approved' });

    expect(await poll(started.deviceCode)).toEqual({
      status: 'invalid_grant',
      description: 'The device code was already used.',
    });
    const kinds = await h.auditKinds({ clientId: client.clientId });
    expect(kinds.filter((kind) => kind === 'device.authorization.tokens_issued')).toHaveLength(1);
    // The refresh token of the new session works like any other.
    await expect(
      h.engine.tokens.refresh.refresh({ refreshToken: tokens.refreshToken, client, resource: null }),
    ).resolves.toMatchObject({ sessionId: session.id });
  });

  it('of 20 concurrent polls of an approved request exactly one gets tokens', async () => {
    const started = await h.start(client, 'openid');
    await approve(started.userCode);
    const results = await Promise.all(Array.from({ length: 20 }, () => poll(started.deviceCode)));
    expect(results.filter((r) => r.status === 'complete')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'invalid_grant')).toHaveLength(19);
    const sessions = await h.db.selectFrom('sessions').select('id').where('userId', '=', user.id).execute();
    expect(sessions).toHaveLength(1);
    expect((await row()).sessionId).toBe(sessions[0]?.id);
  });

  it('no ID token without openid; the scope is intersected again with the client allow-list', async () => {
    const started = await h.start(client, 'profile email');
    await approve(started.userCode);
    await h.db
      .updateTable('clients')
      .set({ allowedScopesJson: JSON.stringify(['profile']) })
      .where('clientId', '=', client.clientId)
      .execute();
    const narrowed = { ...client, allowedScopes: ['profile'] };
    const result = await poll(started.deviceCode, { client: narrowed });
    if (result.status !== 'complete') throw new Error(`expected tokens, got ${result.status}`);
    expect(result.tokens.scope).toEqual(['profile']);
    expect(result.tokens).not.toHaveProperty('idToken');
  });

  it('denied: access_denied on every poll', async () => {
    const started = await h.start(client);
    await h.devices.deny({ userCode: started.userCode, userId: user.id });
    for (let i = 0; i < 2; i += 1) {
      expect(await poll(started.deviceCode)).toEqual({
        status: 'access_denied',
        description: 'The user denied the request.',
      });
    }
  });

  it('expired: expired_token whether pending or approved', async () => {
    const pending = await h.start(client);
    const approved = await h.start(client);
    await approve(approved.userCode);
    h.clock.advance(900 * SECOND);
    for (const { deviceCode } of [pending, approved]) {
      expect(await poll(deviceCode)).toEqual({
        status: 'expired_token',
        description: 'The device code has expired.',
      });
    }
  });

  it('invalid_grant for an unknown code and for another client’s code, which stays usable by its own', async () => {
    const started = await h.start(client);
    await approve(started.userCode);
    const other = await h.deviceClient();
    const invalid = { status: 'invalid_grant', description: 'The device code is not valid.' };
    // Unknown to this client: the token endpoint counts it per address.
    expect(await poll('not-a-device-code')).toEqual({ ...invalid, unknown: true });
    expect(await poll(started.deviceCode, { client: other })).toEqual({ ...invalid, unknown: true });
    expect(statusOf(await poll(started.deviceCode))).toBe('complete');
  });

  it('invalid_target for a resource other than the bound one, without using the code up', async () => {
    const started = await h.start(client, 'openid');
    await approve(started.userCode);
    expect(await poll(started.deviceCode, { resource: FILES })).toMatchObject({ status: 'invalid_target' });
    expect(statusOf(await poll(started.deviceCode, { resource: null }))).toBe('complete');
  });

  it('unauthorized_client once the client no longer allows the grant; invalid_client when inactive', async () => {
    const started = await h.start(client);
    await approve(started.userCode);
    expect(
      await poll(started.deviceCode, { client: { ...client, allowDeviceAuthorization: false } }),
    ).toMatchObject({
      status: 'unauthorized_client',
    });
    expect(await poll(started.deviceCode, { client: { ...client, active: false } })).toMatchObject({
      status: 'invalid_client',
    });
    expect(statusOf(await poll(started.deviceCode))).toBe('complete');
  });

  it('invalid_grant when the approving user was deactivated or left the organization', async () => {
    const organizationId = (await h.given.organization()).id;
    await h.given.membership(organizationId, user.id);
    const started = await h.start(client);
    await approve(started.userCode, organizationId);
    await h.db.updateTable('memberships').set({ active: 0 }).where('userId', '=', user.id).execute();
    expect(await poll(started.deviceCode)).toEqual({
      status: 'invalid_grant',
      description: 'The user is no longer an active member of the organization.',
    });
    await h.db.updateTable('memberships').set({ active: 1 }).where('userId', '=', user.id).execute();
    await h.db.updateTable('users').set({ active: 0 }).where('id', '=', user.id).execute();
    expect(await poll(started.deviceCode)).toEqual({
      status: 'invalid_grant',
      description: 'The user is not active.',
    });
    // Neither refusal used the approval up.
    expect((await row()).status).toBe('approved');
  });
});

describeEachDatabase('device authorizations: polling with OpenID provider mode off', (kind) => {
  it('issues no ID token even when openid was granted', async () => {
    const h = await createDeviceHarness(kind, { openIdEnabled: false });
    try {
      const client = await h.deviceClient();
      const user = await h.given.user();
      const started = await h.start(client, 'openid');
      await h.devices.approve({
        userCode: started.userCode,
        userId: user.id,
        organizationId: null,
        amr: ['pwd'],
        authTime: h.clock.now(),
      });
      const result = await h.devices.poll({ client, deviceCode: started.deviceCode, resource: null });
      if (result.status !== 'complete') throw new Error(`expected tokens, got ${result.status}`);
      expect(result.tokens.scope).toEqual(['openid']);
      expect(result.tokens).not.toHaveProperty('idToken');
    } finally {
      await h.close();
    }
  });
});
