import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ClientRecord } from '../../directory/repository.js';
import { MINUTE_MS } from '../../kernel/clock.js';
import { sha256Hex } from '../../kernel/crypto.js';
import { createAuthHarness, type AuthHarness } from '../../test-support/auth-harness.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { expectedAtHash } from '../../test-support/oauth-http.js';
import { UnknownGrantError } from '../errors.js';
import type { IssuedTokens } from './issued-tokens.js';
import { refreshTokenKey } from './refresh-token-value.js';

describeEachDatabase('refresh rotation', (kind) => {
  let h: AuthHarness;
  let client: ClientRecord;
  let userId: string;

  // One app for the file: each test has a client and a user of its own, and gets the initial settings.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = (await h.given.client({ allowedScopes: ['openid', 'profile', 'email', 'api'] })).record;
    userId = (await h.given.user()).id;
  });
  afterEach(async () => {
    await h.resetSecuritySettings();
  });

  const setLifetimes = (refresh: number, idle: number, absolute: number, graceSeconds = 30) =>
    h.admin.updateSecuritySettingsAsync({
      refreshTokenLifetimeMinutes: refresh,
      sessionIdleTimeoutMinutes: idle,
      sessionAbsoluteLifetimeMinutes: absolute,
      signingKeyRotationIntervalDays: 90,
      signingKeyGraceWindowDays: 7,
      signingKeyRetiredCleanupDays: 30,
      refreshTokenGraceWindowSeconds: graceSeconds,
    });

  const issue = (
    fields: { scopes?: string[]; organizationId?: string | null; resource?: string | null } = {},
  ) =>
    h.engine.tokens.sessions.issueForNewSession({
      userId,
      client,
      organizationId: fields.organizationId ?? null,
      scopes: fields.scopes ?? ['openid', 'profile'],
      resource: fields.resource ?? null,
      amr: ['pwd'],
      authTime: h.clock.now(),
      nonce: 'nonce-1',
      includeIdToken: true,
    });

  const refresh = (
    refreshToken: string,
    extra: { organizationId?: string | null; resource?: string | null } = {},
  ) => h.engine.tokens.refresh.refresh({ refreshToken, client, ...extra });

  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  const session = (id: string) =>
    h.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  const reusesInGrace = () =>
    h.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oauth.refresh_token.reuse_in_grace')
      .where('clientId', '=', client.clientId)
      .execute();

  const tokenRow = (raw: string) =>
    h.db
      .selectFrom('refreshTokens')
      .selectAll()
      .where('tokenHash', '=', sha256Hex(raw))
      .executeTakeFirstOrThrow();

  it('consumes the old token, issues a working new pair, echoes the scope and mints an ID token without nonce', async () => {
    const first = await issue();
    expect(decodeJwt(first.idToken ?? '')).toMatchObject({ nonce: 'nonce-1' });
    const authTime = Math.floor(h.clock.now() / 1000);

    h.clock.advance(MINUTE_MS);
    const second = await refresh(first.refreshToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.scope).toEqual(['openid', 'profile']);
    expect((await tokenRow(first.refreshToken)).consumedAt).toBe(h.clock.now());
    const idToken = decodeJwt(second.idToken ?? '');
    expect(idToken).toMatchObject({
      sub: userId,
      aud: client.clientId,
      auth_time: authTime,
      sid: first.sessionId,
    });
    expect(idToken).not.toHaveProperty('nonce');
    expect(decodeJwt(second.accessToken)).toMatchObject({ scope: 'openid profile', sid: first.sessionId });
    expect((await session(first.sessionId)).idleExpiresAt).toBe(h.clock.now() + 14 * 24 * 60 * MINUTE_MS);

    const third = await refresh(second.refreshToken);
    expect(third.sessionId).toBe(first.sessionId);
  });

  it('mints the access token it signed while writing the rotation: its expiry is the one reported, and the ID token hashes it', async () => {
    const first = await issue();
    h.clock.advance(MINUTE_MS + 500);
    const second = await refresh(first.refreshToken);
    const accessToken = decodeJwt(second.accessToken);
    expect(accessToken).toMatchObject({ sub: userId, sid: first.sessionId, aud: client.audience });
    expect((accessToken.exp ?? 0) * 1000).toBe(second.accessTokenExpiresAt);
    expect(second.accessTokenExpiresAt).toBe(Math.floor(h.clock.now() / 1000) * 1000 + 15 * MINUTE_MS);
    expect(decodeJwt(second.idToken ?? '').at_hash).toBe(expectedAtHash(second.accessToken));
  });

  it('mints no ID token on refresh without openid, nor with provider mode off', async () => {
    const plain = await issue({ scopes: ['api'] });
    const refreshed = await refresh(plain.refreshToken);
    expect(refreshed).not.toHaveProperty('idToken');
    expect(refreshed.scope).toEqual(['api']);

    const off = await createAuthHarness(kind, { openIdEnabled: false });
    try {
      const offClient = (await off.given.client()).record;
      const user = await off.given.user();
      const issued = await off.engine.tokens.sessions.issueForNewSession({
        userId: user.id,
        client: offClient,
        organizationId: null,
        scopes: ['openid'],
        resource: null,
        amr: ['pwd'],
        authTime: off.clock.now(),
        includeIdToken: off.engine.tokens.sessions.wantsIdToken(['openid']),
      });
      expect(issued).not.toHaveProperty('idToken');
      expect(
        await off.engine.tokens.refresh.refresh({ refreshToken: issued.refreshToken, client: offClient }),
      ).not.toHaveProperty('idToken');
    } finally {
      await off.close();
    }
  });

  it('extends the idle deadline on refresh but never past the absolute lifetime, and caps token expiry', async () => {
    await setLifetimes(600, 60, 90);
    const start = h.clock.now();
    const first = await issue();
    expect(first.refreshTokenExpiresAt).toBe(start + 90 * MINUTE_MS);
    expect(await session(first.sessionId)).toMatchObject({
      idleExpiresAt: start + 60 * MINUTE_MS,
      absoluteExpiresAt: start + 90 * MINUTE_MS,
    });

    h.clock.advance(20 * MINUTE_MS);
    const second = await refresh(first.refreshToken);
    expect((await session(first.sessionId)).idleExpiresAt).toBe(start + 80 * MINUTE_MS);

    h.clock.advance(30 * MINUTE_MS);
    const third = await refresh(second.refreshToken);
    expect((await session(first.sessionId)).idleExpiresAt).toBe(start + 90 * MINUTE_MS);
    expect(third.refreshTokenExpiresAt).toBe(start + 90 * MINUTE_MS);

    h.clock.set(start + 90 * MINUTE_MS);
    expect(await errorOf(refresh(third.refreshToken))).toMatchObject({ code: 'invalid_grant' });
  });

  it('refuses a refresh after the idle deadline', async () => {
    await setLifetimes(600, 60, 600);
    const first = await issue();
    h.clock.advance(60 * MINUTE_MS - 1);
    const second = await refresh(first.refreshToken);
    h.clock.advance(60 * MINUTE_MS);
    expect(await errorOf(refresh(second.refreshToken))).toMatchObject({
      code: 'invalid_grant',
      message: 'The session expired after inactivity.',
    });
  });

  it('refuses a refresh after the absolute lifetime even with an unexpired refresh token row', async () => {
    await setLifetimes(600, 600, 60);
    const first = await issue();
    // A token written with a longer expiry than the session (for example before a settings change).
    await h.db
      .updateTable('refreshTokens')
      .set({ expiresAt: h.clock.now() + 600 * MINUTE_MS })
      .where('tokenHash', '=', sha256Hex(first.refreshToken))
      .execute();
    h.clock.advance(60 * MINUTE_MS);
    expect(await errorOf(refresh(first.refreshToken))).toMatchObject({
      code: 'invalid_grant',
      message: 'The session reached its maximum lifetime.',
    });
  });

  it('answers a replay within the grace window with invalid_grant, keeps the family and audits the replay', async () => {
    const first = await issue();
    const second = await refresh(first.refreshToken);
    h.clock.advance(30_000);
    expect(await reusesInGrace()).toEqual([]);
    expect(await errorOf(refresh(first.refreshToken))).toMatchObject({ code: 'invalid_grant' });
    expect((await session(first.sessionId)).revokedAt).toBeNull();
    const [event, ...more] = await reusesInGrace();
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      occurredAt: h.clock.now(),
      actorType: 'client',
      actorId: client.clientId,
      clientId: client.clientId,
      userId,
    });
    expect(JSON.parse(event?.dataJson ?? '')).toEqual({ sessionId: first.sessionId });
    expect(JSON.stringify(event)).not.toContain(first.refreshToken);
    expect((await refresh(second.refreshToken)).sessionId).toBe(first.sessionId);
    expect(await h.auditKinds({ clientId: client.clientId })).not.toContain(
      'oauth.refresh_token.reuse_detected',
    );
  });

  it('revokes the whole family when a consumed token is replayed after the grace window', async () => {
    const first = await issue();
    const second = await refresh(first.refreshToken);
    h.clock.advance(30_001);
    expect(await errorOf(refresh(first.refreshToken))).toMatchObject({ code: 'invalid_grant' });
    expect(await session(first.sessionId)).toMatchObject({
      revokedAt: h.clock.now(),
      revokedReason: 'refresh_token_reuse',
    });
    expect((await tokenRow(second.refreshToken)).revokedAt).toBe(h.clock.now());
    expect(await errorOf(refresh(second.refreshToken))).toMatchObject({ code: 'invalid_grant' });
    expect(await h.auditKinds({ clientId: client.clientId })).toContain('oauth.refresh_token.reuse_detected');
    expect(await reusesInGrace()).toEqual([]);
  });

  it('lets exactly one of ten concurrent refreshes with the same token succeed', async () => {
    const first = await issue();
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => refresh(first.refreshToken)));
    const successes = results.filter(
      (r): r is PromiseFulfilledResult<IssuedTokens> => r.status === 'fulfilled',
    );
    expect(successes).toHaveLength(1);
    for (const failure of results.filter((r) => r.status === 'rejected')) {
      expect((failure as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid_grant' });
    }
    const rows = await h.db
      .selectFrom('refreshTokens')
      .selectAll()
      .where('sessionId', '=', first.sessionId)
      .execute();
    expect(rows).toHaveLength(2);
    // Every loser replayed a token consumed a moment before: each is audited, none revokes the family.
    const replays = await reusesInGrace();
    expect(replays).toHaveLength(9);
    for (const replay of replays) expect(JSON.parse(replay.dataJson)).toEqual({ sessionId: first.sessionId });
    expect((await session(first.sessionId)).revokedAt).toBeNull();
    expect((await refresh(successes[0]?.value.refreshToken ?? '')).sessionId).toBe(first.sessionId);
  });

  it('refuses unknown tokens, another client, revoked sessions and deactivated users', async () => {
    expect(await errorOf(refresh('not-a-token'))).toMatchObject({ code: 'invalid_grant', status: 400 });
    // Only a token Svc does not know is one a guesser could have sent (counted per address at /token).
    expect(await errorOf(refresh('not-a-token'))).toBeInstanceOf(UnknownGrantError);

    const first = await issue();
    const other = (await h.given.client()).record;
    expect(
      await errorOf(h.engine.tokens.refresh.refresh({ refreshToken: first.refreshToken, client: other })),
    ).toMatchObject({
      code: 'invalid_grant',
    });
    // The wrong client did not use the token up.
    const second = await refresh(first.refreshToken);

    await h.db.updateTable('users').set({ active: 0 }).where('id', '=', userId).execute();
    expect(await errorOf(refresh(second.refreshToken))).toMatchObject({
      code: 'invalid_grant',
      message: 'The user is not active.',
    });
    await h.db.updateTable('users').set({ active: 1 }).where('id', '=', userId).execute();

    await h.engine.tokens.revocation.logout({ sessionId: first.sessionId });
    const revoked = await errorOf(refresh(second.refreshToken));
    expect(revoked).toMatchObject({ code: 'invalid_grant' });
    expect(revoked).not.toBeInstanceOf(UnknownGrantError);
  });

  it('refuses a token naming a row that holds another secret, and leaves that row usable', async () => {
    const first = await issue();
    const { id } = refreshTokenKey(first.refreshToken);
    expect(id).not.toBeNull();
    const forged = `${String(id)}.${'A'.repeat(43)}`;
    const refused = await errorOf(refresh(forged));
    expect(refused).toMatchObject({ code: 'invalid_grant', message: 'The refresh token is not valid.' });
    expect(refused).toBeInstanceOf(UnknownGrantError);
    expect((await refresh(first.refreshToken)).sessionId).toBe(first.sessionId);
  });

  it('still refreshes a token from before tokens named their rows, and its successor names its row', async () => {
    const first = await issue();
    // A pre-0013 token: an opaque secret whose row is found by its hash.
    const legacy = 'Zm9yLWEtdG9rZW4tZnJvbS1iZWZvcmUtc2VsZWN0b3Jz';
    await h.db
      .updateTable('refreshTokens')
      .set({ tokenHash: sha256Hex(legacy), tokenFormat: 1 })
      .where('tokenHash', '=', sha256Hex(first.refreshToken))
      .execute();

    const second = await refresh(legacy);
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.refreshToken).toMatch(/^rft_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/);
    expect(await tokenRow(legacy)).toMatchObject({ consumedAt: h.clock.now() });
    expect(await tokenRow(second.refreshToken)).toMatchObject({ tokenFormat: 2, consumedAt: null });
    expect(await errorOf(refresh(first.refreshToken))).toMatchObject({ code: 'invalid_grant' });
  });

  it('keeps the resource binding: repeating it works, changing or introducing it is invalid_target', async () => {
    const bound = await issue({ resource: 'https://files.example.com' });
    expect(decodeJwt(bound.accessToken).aud).toBe('https://files.example.com');
    const again = await refresh(bound.refreshToken, { resource: 'https://files.example.com' });
    expect(decodeJwt(again.accessToken).aud).toBe('https://files.example.com');
    expect(
      await errorOf(refresh(again.refreshToken, { resource: 'https://other.example.com' })),
    ).toMatchObject({
      code: 'invalid_target',
    });

    const unbound = await issue();
    expect(decodeJwt(unbound.accessToken).aud).toBe(client.audience);
    expect(await errorOf(refresh(unbound.refreshToken, { resource: client.audience }))).toMatchObject({
      code: 'invalid_target',
    });
    // Neither refusal used the token.
    expect((await refresh(unbound.refreshToken)).sessionId).toBe(unbound.sessionId);
  });

  it('switches organization only to an active membership and re-checks the current one', async () => {
    const [a, b, c] = [
      await h.given.organization(),
      await h.given.organization(),
      await h.given.organization(),
    ];
    await h.given.membership(a.id, userId);
    await h.given.membership(b.id, userId);
    const first = await issue({ organizationId: a.id });
    expect(decodeJwt(first.accessToken).org_id).toBe(a.id);

    expect(await errorOf(refresh(first.refreshToken, { organizationId: c.id }))).toMatchObject({
      code: 'access_denied',
      status: 403,
    });
    const switched = await refresh(first.refreshToken, { organizationId: b.id });
    expect(switched.organizationId).toBe(b.id);
    expect(decodeJwt(switched.accessToken).org_id).toBe(b.id);
    expect(decodeJwt(switched.idToken ?? '').org_id).toBe(b.id);
    expect((await session(first.sessionId)).organizationId).toBe(b.id);

    await h.db.updateTable('memberships').set({ active: 0 }).where('organizationId', '=', b.id).execute();
    expect(await errorOf(refresh(switched.refreshToken))).toMatchObject({
      code: 'invalid_grant',
      message: 'The user is no longer an active member of the organization.',
    });
  });
});
