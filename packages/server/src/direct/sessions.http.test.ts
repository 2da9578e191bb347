import { svcTokenResponseSchema, type SvcTokenResponse } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../kernel/clock.js';
import { sha256Hex } from '../kernel/crypto.js';
import { createDirectHarness, unique, type DirectHarness } from '../test-support/direct-test-app.js';

/**
 * The session routes of the direct helpers: POST /token/refresh (public clients only, no client
 * authentication channel), /logout, /logout-all, /account/grants and /account/grants/revoke, and the
 * retired routes that stay unmapped.
 */
describe('direct session routes', () => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness();
  });
  afterAll(() => h.close());

  const db = () => h.t.svc.database.db;
  /** A signed-in first-party session of a new user. */
  const signedIn = async (userEmail?: string): Promise<SvcTokenResponse & { userId: string }> => {
    const web = await h.given.client();
    const user = await h.given.user(userEmail);
    const tokens = (await h.login(user.email, web.clientId)).tokens;
    if (tokens === null) throw new Error('no tokens');
    return { ...tokens, userId: user.id };
  };
  const refresh = (refreshToken: string, extra: object = {}, headers: Record<string, string> = {}) =>
    h.post('/token/refresh', { refreshToken, ...extra }, headers);
  const refreshTokenRow = (token: string) =>
    db()
      .selectFrom('refreshTokens')
      .selectAll()
      .where('tokenHash', '=', sha256Hex(token))
      .executeTakeFirstOrThrow();
  const sessionRow = (id: string) =>
    db().selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  describe('POST /token/refresh', () => {
    it('rotates a public client token and keeps the granted scope', async () => {
      const web = await h.given.client({ allowedScopes: ['api:read', 'api:write'] });
      const ann = await h.given.user();
      const first = (await h.login(ann.email, web.clientId)).tokens;
      const response = await refresh(first?.refreshToken ?? '');
      expect(response.statusCode, response.body).toBe(200);
      const second = svcTokenResponseSchema.parse(response.json());
      expect(Object.keys(second).sort()).toEqual(Object.keys(svcTokenResponseSchema.shape).sort());
      expect(second).toMatchObject({
        sessionId: first?.sessionId,
        clientId: web.clientId,
        organizationId: null,
      });
      expect((await refreshTokenRow(first?.refreshToken ?? '')).consumedAt).toBe(h.t.clock.now());
      const claims = JSON.parse(Buffer.from(second.accessToken.split('.')[1] ?? '', 'base64url').toString());
      expect(claims).toMatchObject({ scope: 'api:read api:write', sid: first?.sessionId });
    });

    it('switches the organization only into one the user belongs to', async () => {
      const web = await h.given.client();
      const ann = await h.given.user();
      const [a, b, stranger] = [
        await h.given.organization(),
        await h.given.organization(),
        await h.given.organization(),
      ];
      await h.given.membership(a.id, ann.id);
      await h.given.membership(b.id, ann.id);
      const first = (await h.login(ann.email, web.clientId, a.id)).tokens;
      const refused = await refresh(first?.refreshToken ?? '', { organizationId: stranger.id });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'access_denied', message: expect.any(String) });
      const switched = await refresh(first?.refreshToken ?? '', { OrganizationId: b.id });
      expect(switched.statusCode, switched.body).toBe(200);
      expect(switched.json()).toMatchObject({ organizationId: b.id, sessionId: first?.sessionId });
    });

    it('answers an unknown token with invalid_grant in the direct error body', async () => {
      const response = await refresh('never-issued');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'invalid_grant', message: 'The refresh token is not valid.' });
    });

    it('refuses a confidential client token with 401 before rotation, whatever credentials come along', async () => {
      const confidential = await h.given.client({
        tokenEndpointAuthMethod: 'client_secret_basic',
        isFirstParty: true,
      });
      const secret = confidential.clientSecret ?? '';
      const ann = await h.given.user();
      const issued = await h.t.svc.authEngine.tokens.sessions.issueForNewSession({
        userId: ann.id,
        client: confidential.record,
        organizationId: null,
        scopes: [],
        resource: null,
        amr: ['pwd'],
        authTime: h.t.clock.now(),
        includeIdToken: false,
      });
      const basic = `Basic ${Buffer.from(`${confidential.clientId}:${secret}`).toString('base64')}`;
      const attempts = [
        refresh(issued.refreshToken),
        // docs/reference/sign-in.md "Direct JSON helpers": it "ignores Authorization headers and secret fields".
        refresh(issued.refreshToken, {}, { authorization: basic }),
        refresh(issued.refreshToken, {
          clientId: confidential.clientId,
          clientSecret: secret,
          client_secret: secret,
        }),
      ];
      for (const response of await Promise.all(attempts)) {
        expect(response.statusCode, response.body).toBe(401);
        expect(response.json()).toEqual({
          error: 'invalid_client',
          error_description: 'Client authentication failed.',
        });
        expect(response.headers['cache-control']).toBe('no-store');
      }
      const events = await h.events('oauth.client_authentication.failed', confidential.clientId);
      expect(events).toHaveLength(3);
      expect(events[0]).toMatchObject({
        userId: ann.id,
        data: { client_id: confidential.clientId, route: '/svc/auth/token/refresh' },
      });
      expect((await refreshTokenRow(issued.refreshToken)).consumedAt).toBeNull();

      // Not consumed: the token endpoint's refresh (which authenticates the client) still rotates it.
      const rotated = await h.t.svc.authEngine.tokens.refresh.refresh({
        refreshToken: issued.refreshToken,
        client: confidential.record,
      });
      expect(rotated.sessionId).toBe(issued.sessionId);

      // A consumed token gets the same 401, never a grace-window answer, and never revokes the family,
      // even after the grace window.
      h.t.clock.advance(5_000);
      const within = await refresh(issued.refreshToken);
      h.t.clock.advance(60_000);
      const after = await refresh(issued.refreshToken);
      for (const response of [within, after]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ error: 'invalid_client' });
      }
      expect((await sessionRow(issued.sessionId)).revokedAt).toBeNull();
      const again = await h.t.svc.authEngine.tokens.refresh.refresh({
        refreshToken: rotated.refreshToken,
        client: confidential.record,
      });
      expect(again.sessionId).toBe(issued.sessionId);
    });
  });

  describe('POST /logout', () => {
    it('revokes the session of a refresh token, idempotently', async () => {
      const session = await signedIn();
      for (let i = 0; i < 2; i += 1) {
        const response = await h.post('/logout', { refreshToken: session.refreshToken });
        expect(response.statusCode).toBe(204);
        expect(response.body).toBe('');
      }
      expect(await sessionRow(session.sessionId)).toMatchObject({ revokedReason: 'logout' });
      expect((await refresh(session.refreshToken)).json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('is a no-op for unknown or missing tokens and ignores a caller-supplied sessionId', async () => {
      const session = await signedIn();
      const bodies: (object | string | undefined)[] = [
        { refreshToken: 'never-issued' },
        {},
        { refreshToken: null },
        { sessionId: session.sessionId },
        { SessionId: session.sessionId, refreshToken: 'never-issued' },
        '',
        undefined,
      ];
      for (const body of bodies) {
        const response = await h.post('/logout', body);
        expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(204);
      }
      expect((await sessionRow(session.sessionId)).revokedAt).toBeNull();
      expect((await refresh(session.refreshToken)).statusCode).toBe(200);
    });
  });

  describe('POST /logout-all', () => {
    it('revokes every session of the token owner and no one else', async () => {
      const email = `${unique('ann')}@example.com`;
      const web = await h.given.client();
      const ann = await h.given.user(email);
      const first = (await h.login(email, web.clientId)).tokens;
      const second = (await h.login(email, web.clientId)).tokens;
      const bob = await signedIn();

      const response = await h.post('/logout-all', { refreshToken: second?.refreshToken });
      expect(response.statusCode, response.body).toBe(204);
      const sessions = await db().selectFrom('sessions').selectAll().where('userId', '=', ann.id).execute();
      expect(sessions.map((s) => s.revokedReason)).toEqual(['logout_all', 'logout_all']);
      expect((await refresh(first?.refreshToken ?? '')).statusCode).toBe(400);
      expect((await sessionRow(bob.sessionId)).revokedAt).toBeNull();
    });

    it('answers 401 for a missing, unknown, consumed, revoked or expired token', async () => {
      const consumed = await signedIn();
      expect((await refresh(consumed.refreshToken)).statusCode).toBe(200);
      const revoked = await signedIn();
      await h.post('/logout', { refreshToken: revoked.refreshToken });
      const expired = await signedIn();
      const live = await signedIn();

      const check = async (body: object | undefined, what: string) => {
        const response = await h.post('/logout-all', body);
        expect(response.statusCode, what).toBe(401);
        expect(response.json(), what).toEqual({
          error: 'invalid_token',
          message: 'The refresh token is not active.',
        });
      };
      await check(undefined, 'no body');
      await check({}, 'no token');
      await check({ refreshToken: null }, 'null token');
      await check({ refreshToken: 'never-issued' }, 'unknown');
      await check({ refreshToken: consumed.refreshToken }, 'consumed');
      await check({ refreshToken: revoked.refreshToken }, 'revoked');
      h.t.clock.advance(31 * DAY_MS);
      await check({ refreshToken: expired.refreshToken }, 'expired');
      // None of that touched the other user's session (it expired on its own, but was not revoked).
      expect((await sessionRow(live.sessionId)).revokedAt).toBeNull();
    });
  });

  describe('account grants', () => {
    it('lists and revokes the grants of a first-party session only', async () => {
      const session = await signedIn();
      const photos = await h.given.client({ isFirstParty: false, name: 'Photo App' });
      const grant = await h.t.svc.authEngine.consents.record(session.userId, photos.clientId, ['photos']);
      const other = await signedIn();
      const othersGrant = await h.t.svc.authEngine.consents.record(other.userId, photos.clientId, ['photos']);
      const thirdPartySession = await h.t.svc.authEngine.tokens.sessions.issueForNewSession({
        userId: session.userId,
        client: photos.record,
        organizationId: null,
        scopes: ['photos'],
        resource: null,
        amr: ['pwd'],
        authTime: h.t.clock.now(),
        includeIdToken: false,
      });

      const listed = await h.post('/account/grants', { refreshToken: session.refreshToken });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json()).toEqual({
        data: [
          {
            id: grant.id,
            clientId: photos.clientId,
            clientName: 'Photo App',
            scopes: ['photos'],
            scopeDetails: [{ scope: 'photos', displayName: null, description: null }],
            grantedAt: new Date(grant.grantedAt).toISOString(),
            updatedAt: new Date(grant.updatedAt).toISOString(),
          },
        ],
      });

      // The same generic 401 for a third-party session, an unknown token and no token at all.
      const unauthorized = [
        { refreshToken: thirdPartySession.refreshToken },
        { refreshToken: 'never-issued' },
        {},
      ];
      for (const body of unauthorized) {
        for (const path of ['/account/grants', '/account/grants/revoke']) {
          const response = await h.post(path, { ...body, grantId: grant.id });
          expect(response.statusCode, `${path} ${JSON.stringify(body)}`).toBe(401);
          expect(response.json()).toMatchObject({ error: 'invalid_token', message: expect.any(String) });
        }
      }

      const revoke = (grantId: string) =>
        h.post('/account/grants/revoke', { refreshToken: session.refreshToken, grantId });
      const notMine = await revoke(othersGrant.id);
      expect(notMine.statusCode).toBe(400);
      const done = await revoke(grant.id);
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toEqual({ id: grant.id, revokedAt: new Date(h.t.clock.now()).toISOString() });
      for (const grantId of [grant.id, 'cgr_unknown']) {
        const response = await revoke(grantId);
        expect(response.statusCode).toBe(400);
        expect(response.json()).toEqual({
          error: 'invalid_request',
          message: 'The grant does not exist or is already revoked.',
        });
      }
      expect((await h.post('/account/grants', { refreshToken: session.refreshToken })).json()).toEqual({
        data: [],
      });
      // The other user's grant survived the attempt.
      expect(await h.t.svc.authEngine.consents.list(other.userId)).toHaveLength(1);
    });
  });

  describe('retired and unknown routes', () => {
    it.each([
      ['GET', '/token/exchange'],
      ['POST', '/saml/login/conn_123'],
      ['GET', '/saml/login/conn_123'],
      ['GET', '/password/login'],
      ['PUT', '/token/refresh'],
    ] as const)('%s %s is not mapped', async (method, path) => {
      const response = await h.inject({
        method,
        url: `${h.authBase}${path}`,
        payload: { code: 'abc', clientId: 'x', redirectUri: 'https://a.example/cb', codeVerifier: 'v' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'not_found', message: 'Not found.' });
    });
  });
});
