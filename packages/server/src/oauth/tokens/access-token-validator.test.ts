import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import type { ClientRecord } from '../../directory/repository.js';
import { MINUTE_MS } from '../../kernel/clock.js';
import { createAuthHarness, type AuthHarness } from '../../test-support/auth-harness.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { LAST_SEEN_RESOLUTION_MS } from './access-token-validator.js';

describeAboveStorage('access token validation', (kind) => {
  let h: AuthHarness;
  let client: ClientRecord;
  let userId: string;

  // One app for the file: each test has a client and a user of its own, and gets the initial settings.
  beforeAll(async () => {
    h = await createAuthHarness(kind, {
      // Idle 5 minutes and absolute 10 minutes: both end inside one 15-minute access token lifetime.
      settings: { sessionIdleTimeoutMinutes: 5, sessionAbsoluteLifetimeMinutes: 10 },
    });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    client = (await h.given.client({ audience: 'https://api.example.com' })).record;
    userId = (await h.given.user()).id;
  });
  afterEach(async () => {
    await h.resetSecuritySettings();
  });

  const issue = (organizationId: string | null = null) =>
    h.engine.tokens.sessions.issueForNewSession({
      userId,
      client,
      organizationId,
      scopes: ['openid'],
      resource: null,
      amr: ['pwd'],
      authTime: h.clock.now(),
      includeIdToken: false,
    });

  const lastSeen = async (id: string) =>
    await h.db
      .selectFrom('sessions')
      .select(['lastSeenAt', 'idleExpiresAt'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('accepts a live token for its audience, updates lastSeenAt and leaves the idle deadline alone', async () => {
    const { accessToken, sessionId } = await issue();
    const before = await lastSeen(sessionId);
    h.clock.advance(2 * MINUTE_MS);
    const result = await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com');
    expect(result).toMatchObject({
      sessionId,
      userId,
      organizationId: null,
      clientId: client.clientId,
      audience: 'https://api.example.com',
      principal: { sub: userId, sid: sessionId, client_id: client.clientId, scope: 'openid' },
    });
    const after = await lastSeen(sessionId);
    expect(after.lastSeenAt).toBe(h.clock.now());
    expect(after.idleExpiresAt).toBe(before.idleExpiresAt);
  });

  it('writes lastSeenAt to the minute: not again while the stored value is less than a minute old', async () => {
    const { accessToken, sessionId } = await issue();
    const issuedAt = h.clock.now();
    h.clock.advance(LAST_SEEN_RESOLUTION_MS - 1);
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com')).not.toBeNull();
    expect((await lastSeen(sessionId)).lastSeenAt).toBe(issuedAt);
    h.clock.advance(1);
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com')).not.toBeNull();
    const written = h.clock.now();
    expect((await lastSeen(sessionId)).lastSeenAt).toBe(written);
    h.clock.advance(LAST_SEEN_RESOLUTION_MS / 2);
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com')).not.toBeNull();
    expect((await lastSeen(sessionId)).lastSeenAt).toBe(written);
    h.clock.advance(LAST_SEEN_RESOLUTION_MS / 2);
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com')).not.toBeNull();
    expect((await lastSeen(sessionId)).lastSeenAt).toBe(h.clock.now());
  });

  it('still refuses a session revoked since lastSeenAt was written: the row is read on every call', async () => {
    const { accessToken, sessionId } = await issue();
    h.clock.advance(LAST_SEEN_RESOLUTION_MS);
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com')).not.toBeNull();
    await h.engine.tokens.revocation.logout({ sessionId });
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com')).toBeNull();
  });

  it('refuses the wrong audience, garbage, and a tampered token; the audience is required', async () => {
    const { accessToken } = await issue();
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://other.example.com')).toBeNull();
    expect(await h.auth.validateAccessTokenAsync('not.a.jwt', 'https://api.example.com')).toBeNull();
    expect(await h.auth.validateAccessTokenAsync('', 'https://api.example.com')).toBeNull();
    const [header, payload, signature] = accessToken.split('.') as [string, string, string];
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'usr_other' }),
    ).toString('base64url');
    expect(
      await h.auth.validateAccessTokenAsync(`${header}.${forged}.${signature}`, 'https://api.example.com'),
    ).toBeNull();
    await expect(h.auth.validateAccessTokenAsync(accessToken, '')).rejects.toMatchObject({ status: 400 });
  });

  it('refuses ID tokens presented as access tokens', async () => {
    const issued = await h.engine.tokens.sessions.issueForNewSession({
      userId,
      client,
      organizationId: null,
      scopes: ['openid'],
      resource: null,
      amr: ['pwd'],
      authTime: h.clock.now(),
      includeIdToken: true,
    });
    expect(await h.auth.validateAccessTokenAsync(issued.idToken ?? '', client.clientId)).toBeNull();
  });

  it('refuses a revoked session and one past its absolute lifetime, but not one past its idle deadline', async () => {
    const revoked = await issue();
    await h.auth.logoutAsync({ sessionId: revoked.sessionId });
    expect(await h.auth.validateAccessTokenAsync(revoked.accessToken, 'https://api.example.com')).toBeNull();

    const live = await issue();
    h.clock.advance(6 * MINUTE_MS);
    // docs/reference/tokens-and-sessions.md "Validating tokens": validation "does not check or extend IdleExpiresAt"; userinfo does.
    expect(await h.auth.validateAccessTokenAsync(live.accessToken, 'https://api.example.com')).not.toBeNull();
    expect(
      await h.engine.tokens.accessTokens.validate(live.accessToken, {
        audience: null,
        enforceIdleDeadline: true,
      }),
    ).toBeNull();
    h.clock.advance(4 * MINUTE_MS);
    expect(await h.auth.validateAccessTokenAsync(live.accessToken, 'https://api.example.com')).toBeNull();
  });

  it('allows one minute of clock skew after exp', async () => {
    await h.admin.updateSecuritySettingsAsync({
      refreshTokenLifetimeMinutes: 600,
      sessionIdleTimeoutMinutes: 600,
      sessionAbsoluteLifetimeMinutes: 600,
      signingKeyRotationIntervalDays: 90,
      signingKeyGraceWindowDays: 7,
      signingKeyRetiredCleanupDays: 30,
    });
    const { accessToken } = await issue();
    h.clock.advance(15 * MINUTE_MS + 59_000);
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com')).not.toBeNull();
    h.clock.advance(2_000);
    expect(await h.auth.validateAccessTokenAsync(accessToken, 'https://api.example.com')).toBeNull();
  });

  it('refuses tokens of deactivated users and of organizations the user left', async () => {
    const org = await h.given.organization();
    await h.given.membership(org.id, userId);
    const scoped = await issue(org.id);
    expect(
      await h.auth.validateAccessTokenAsync(scoped.accessToken, 'https://api.example.com'),
    ).toMatchObject({
      organizationId: org.id,
      principal: { org_id: org.id },
    });
    await h.db.updateTable('memberships').set({ active: 0 }).where('organizationId', '=', org.id).execute();
    expect(await h.auth.validateAccessTokenAsync(scoped.accessToken, 'https://api.example.com')).toBeNull();
    await h.db.updateTable('memberships').set({ active: 1 }).where('organizationId', '=', org.id).execute();
    await h.db.updateTable('organizations').set({ active: 0 }).where('id', '=', org.id).execute();
    expect(await h.auth.validateAccessTokenAsync(scoped.accessToken, 'https://api.example.com')).toBeNull();

    const plain = await issue();
    await h.db.updateTable('users').set({ active: 0 }).where('id', '=', userId).execute();
    expect(await h.auth.validateAccessTokenAsync(plain.accessToken, 'https://api.example.com')).toBeNull();
  });

  it('the deprecated variant accepts any audience but still verifies everything else', async () => {
    const bound = await h.engine.tokens.sessions.issueForNewSession({
      userId,
      client,
      organizationId: null,
      scopes: [],
      resource: 'https://files.example.com',
      amr: ['pwd'],
      authTime: h.clock.now(),
      includeIdToken: false,
    });
    const result = await h.auth.validateAccessTokenWithoutAudienceAsync(bound.accessToken);
    expect(result).toMatchObject({ audience: 'https://files.example.com', sessionId: bound.sessionId });
    expect(result?.principal).not.toHaveProperty('scope');
    await h.auth.logoutAsync({ refreshToken: bound.refreshToken });
    expect(await h.auth.validateAccessTokenWithoutAudienceAsync(bound.accessToken)).toBeNull();
  });
});
