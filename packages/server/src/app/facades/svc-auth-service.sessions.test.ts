import { svcTokenResponseSchema } from '@svc/contract';
import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { sha256Hex } from '../../kernel/crypto.js';
import { SvcClientAuthenticationError, SvcValidationError } from '../../kernel/errors.js';
import { createAuthHarness, TEST_PASSWORD, type AuthHarness } from '../../test-support/auth-harness.js';
import { describeAboveStorage } from '../../test-support/databases.js';

describeAboveStorage('SvcAuthService sessions', (kind) => {
  let h: AuthHarness;
  let web: { clientId: string };

  // One app for the file: each test has a client and users of its own, and gets the initial settings.
  beforeAll(async () => {
    h = await createAuthHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    web = await h.given.client({ allowedScopes: ['openid', 'profile', 'api:read'] });
  });
  afterEach(async () => {
    await h.resetSecuritySettings();
  });

  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );
  const rejectionEvents = async (clientId: string) =>
    h.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oauth.direct_login.rejected')
      .where('clientId', '=', clientId)
      .execute();

  it('refreshes a public client in-process and refuses a confidential client without consuming its token', async () => {
    const user = await h.given.user();
    const login = await h.auth.loginWithPasswordAsync({
      email: user.email,
      password: TEST_PASSWORD,
      clientId: web.clientId,
    });
    const refreshed = await h.auth.refreshAsync({ refreshToken: login.tokens?.refreshToken ?? '' });
    expect(svcTokenResponseSchema.parse(refreshed)).toMatchObject({ sessionId: login.tokens?.sessionId });
    expect(await errorOf(h.auth.refreshAsync({ refreshToken: 'unknown' }))).toMatchObject({
      code: 'invalid_grant',
    });

    const confidential = await h.given.client({ tokenEndpointAuthMethod: 'client_secret_basic' });
    const issued = await h.engine.tokens.sessions.issueForNewSession({
      userId: user.id,
      client: confidential.record,
      organizationId: null,
      scopes: [],
      resource: null,
      amr: ['pwd'],
      authTime: h.clock.now(),
      includeIdToken: false,
    });
    const error = await errorOf(
      h.auth.refreshAsync({ refreshToken: issued.refreshToken }, { route: '/svc/auth/token/refresh' }),
    );
    expect(error).toBeInstanceOf(SvcClientAuthenticationError);
    expect(error).toMatchObject({
      code: 'invalid_client',
      status: 401,
      message: 'Client authentication failed.',
    });
    const events = await h.db
      .selectFrom('auditEvents')
      .selectAll()
      .where('kind', '=', 'oauth.client_authentication.failed')
      .where('clientId', '=', confidential.clientId)
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]?.clientId).toBe(confidential.clientId);
    const row = await h.db
      .selectFrom('refreshTokens')
      .selectAll()
      .where('tokenHash', '=', sha256Hex(issued.refreshToken))
      .executeTakeFirstOrThrow();
    expect(row.consumedAt).toBeNull();
    // The token endpoint (which authenticates the client) can still use it.
    expect(
      (
        await h.engine.tokens.refresh.refresh({
          refreshToken: issued.refreshToken,
          client: confidential.record,
        })
      ).sessionId,
    ).toBe(issued.sessionId);
  });

  it('logs out by refresh token or session id, ignores unknown ones, and needs at least one', async () => {
    const ann = await h.given.user();
    const login = () =>
      h.auth.loginWithPasswordAsync({
        email: ann.email,
        password: TEST_PASSWORD,
        clientId: web.clientId,
      });
    const [one, two] = [(await login()).tokens, (await login()).tokens];
    await expect(h.auth.logoutAsync({})).rejects.toBeInstanceOf(SvcValidationError);
    await h.auth.logoutAsync({ refreshToken: 'unknown-token' });
    await h.auth.logoutAsync({ sessionId: 'ses_unknown' });
    await h.auth.logoutAsync({ refreshToken: one?.refreshToken ?? '' });
    await h.auth.logoutAsync({ refreshToken: one?.refreshToken ?? '' });
    await h.auth.logoutAsync({ sessionId: two?.sessionId ?? '' });
    const sessions = await h.db.selectFrom('sessions').selectAll().where('userId', '=', ann.id).execute();
    expect(sessions.map((s) => s.revokedReason)).toEqual(['logout', 'logout']);
    expect(await errorOf(h.auth.refreshAsync({ refreshToken: one?.refreshToken ?? '' }))).toMatchObject({
      code: 'invalid_grant',
    });
  });

  it('logs out everywhere by user id or by an active refresh token, refusing inactive tokens with 401', async () => {
    const ann = await h.given.user();
    const bob = await h.given.user();
    const login = (email: string) =>
      h.auth.loginWithPasswordAsync({ email, password: TEST_PASSWORD, clientId: web.clientId });
    const annA = (await login(ann.email)).tokens;
    await login(ann.email);
    const bobA = (await login(bob.email)).tokens;
    const cookie = await h.engine.browserSessions.create(ann.id, ['pwd'], h.clock.now());

    const consumed = annA?.refreshToken ?? '';
    const rotated = await h.auth.refreshAsync({ refreshToken: consumed });
    expect(await errorOf(h.auth.logoutAllWithRefreshTokenAsync({ refreshToken: consumed }))).toMatchObject({
      code: 'invalid_token',
      status: 401,
    });
    expect(await errorOf(h.auth.logoutAllWithRefreshTokenAsync({ refreshToken: 'unknown' }))).toMatchObject({
      status: 401,
    });

    await h.auth.logoutAllWithRefreshTokenAsync({ refreshToken: rotated.refreshToken });
    const revoked = await h.db
      .selectFrom('sessions')
      .select(['userId', 'revokedReason'])
      .where('userId', 'in', [ann.id, bob.id])
      .execute();
    expect(revoked.filter((s) => s.userId === ann.id).map((s) => s.revokedReason)).toEqual([
      'logout_all',
      'logout_all',
    ]);
    expect(revoked.find((s) => s.userId === bob.id)?.revokedReason).toBeNull();
    expect(await h.engine.browserSessions.resolve(cookie.token)).toBeNull();

    await h.auth.logoutAllAsync(bob.id);
    expect(await errorOf(h.auth.refreshAsync({ refreshToken: bobA?.refreshToken ?? '' }))).toMatchObject({
      code: 'invalid_grant',
    });
  });

  it('lists and revokes consent grants for an active first-party session only', async () => {
    const ann = await h.given.user();
    const thirdParty = await h.given.client({ isFirstParty: false, name: 'Photo App' });
    const grant = await h.engine.consents.record(ann.id, thirdParty.clientId, ['openid', 'photos']);
    const login = await h.auth.loginWithPasswordAsync({
      email: ann.email,
      password: TEST_PASSWORD,
      clientId: web.clientId,
    });
    const refreshToken = login.tokens?.refreshToken ?? '';

    expect(await h.auth.listAccountGrantsAsync({ refreshToken })).toEqual({
      data: [
        {
          id: grant.id,
          clientId: thirdParty.clientId,
          clientName: 'Photo App',
          scopes: ['openid', 'photos'],
          scopeDetails: [
            { scope: 'openid', displayName: 'Confirm who you are when you sign in', description: null },
            { scope: 'photos', displayName: null, description: null },
          ],
          grantedAt: new Date(h.clock.now()).toISOString(),
          updatedAt: new Date(h.clock.now()).toISOString(),
        },
      ],
    });

    const thirdPartySession = await h.engine.tokens.sessions.issueForNewSession({
      userId: ann.id,
      client: thirdParty.record,
      organizationId: null,
      scopes: [],
      resource: null,
      amr: ['pwd'],
      authTime: h.clock.now(),
      includeIdToken: false,
    });
    for (const token of [thirdPartySession.refreshToken, 'unknown']) {
      expect(await errorOf(h.auth.listAccountGrantsAsync({ refreshToken: token }))).toMatchObject({
        status: 401,
        message: 'An active first-party session is required.',
      });
      expect(
        await errorOf(h.auth.revokeAccountGrantAsync({ refreshToken: token, grantId: grant.id })),
      ).toMatchObject({ status: 401 });
    }

    expect(await h.auth.revokeAccountGrantAsync({ refreshToken, grantId: grant.id })).toEqual({
      id: grant.id,
      revokedAt: new Date(h.clock.now()).toISOString(),
    });
    expect(await errorOf(h.auth.revokeAccountGrantAsync({ refreshToken, grantId: grant.id }))).toMatchObject({
      status: 400,
    });
    expect(
      await errorOf(h.auth.revokeAccountGrantAsync({ refreshToken, grantId: 'cgr_unknown' })),
    ).toMatchObject({ status: 400 });
    expect(await h.auth.listAccountGrantsAsync({ refreshToken })).toEqual({ data: [] });
  });

  it('creates session tokens for a user without organization selection or the first-party rule', async () => {
    const ann = await h.given.user();
    const [a, b, stranger] = [
      await h.given.organization(),
      await h.given.organization(),
      await h.given.organization(),
    ];
    await h.given.membership(a.id, ann.id);
    await h.given.membership(b.id, ann.id);
    const thirdParty = await h.given.client({
      isFirstParty: false,
      allowedScopes: ['x'],
      allowedResources: ['https://files.example.com'],
    });

    const tokens = await h.auth.createSessionTokensForUserAsync(
      ann,
      thirdParty,
      b.id,
      'sso',
      'agent',
      '198.51.100.1',
      'https://files.example.com',
    );
    expect(tokens).toMatchObject({ organizationId: b.id, clientId: thirdParty.clientId });
    expect(decodeJwt(tokens.accessToken)).toMatchObject({
      aud: 'https://files.example.com',
      org_id: b.id,
      scope: 'x',
    });
    const session = await h.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', tokens.sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toMatchObject({ amrJson: '["sso"]', userAgent: 'agent', ipAddress: '198.51.100.1' });

    expect(
      await errorOf(
        h.auth.createSessionTokensForUserAsync(ann.id, thirdParty.clientId, stranger.id, 'sso', null, null),
      ),
    ).toMatchObject({
      code: 'access_denied',
    });
    expect(
      await errorOf(
        h.auth.createSessionTokensForUserAsync(
          ann.id,
          thirdParty.clientId,
          null,
          'sso',
          null,
          null,
          'https://evil.example.com',
        ),
      ),
    ).toMatchObject({ code: 'invalid_target' });
    expect(
      await errorOf(
        h.auth.createSessionTokensForUserAsync('usr_missing', thirdParty.clientId, null, 'sso', null, null),
      ),
    ).toMatchObject({
      status: 404,
    });
    expect(await rejectionEvents(thirdParty.clientId)).toHaveLength(0);
  });

  it('reads and updates the security settings', async () => {
    const updated = await h.auth.updateSecuritySettingsAsync({
      refreshTokenLifetimeMinutes: 60,
      sessionIdleTimeoutMinutes: 30,
      sessionAbsoluteLifetimeMinutes: 120,
      signingKeyRotationIntervalDays: 90,
      signingKeyGraceWindowDays: 7,
      signingKeyRetiredCleanupDays: 30,
    });
    expect(updated.refreshTokenGraceWindowSeconds).toBe(30);
    expect(await h.auth.getResolvedSecuritySettingsAsync()).toMatchObject({
      sessionIdleTimeoutMs: 30 * 60_000,
      refreshTokenLifetimeMs: 60 * 60_000,
    });
  });
});
