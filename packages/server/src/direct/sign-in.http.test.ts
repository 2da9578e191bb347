import { svcLoginResultSchema } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectHarness,
  DIRECT_PASSWORD,
  unique,
  type DirectHarness,
} from '../test-support/direct-test-app.js';

/**
 * The sign-in routes of the direct helpers (POST /signup, /password/login, /select-organization): the
 * first-party gate on each (docs/reference/sign-in.md "Direct JSON helpers": Any other client … gets status 400 with body
 * fields error='invalid_client' and message=<text> before any credential check, email, or token
 * minting; "Events": one `oauth.direct_login.rejected` per rejection, with client_id and the route),
 * the login-result states and signup.
 */
describe('direct sign-in routes', () => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness();
  });
  afterAll(() => h.close());

  const sessionsOf = async (userId: string) =>
    h.t.svc.database.db.selectFrom('sessions').selectAll().where('userId', '=', userId).execute();

  describe('the first-party gate', () => {
    it('refuses a third-party, unknown or missing client on /password/login before the password is checked', async () => {
      const ann = await h.given.user();
      const thirdParty = await h.given.client({ isFirstParty: false });
      const unknownClient = unique('no-such-client');
      for (const [clientId, password] of [
        [thirdParty.clientId, 'wrong password'],
        [thirdParty.clientId, DIRECT_PASSWORD],
        [unknownClient, 'wrong password'],
      ] as const) {
        const response = await h.post('/password/login', { email: ann.email, password, clientId });
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({
          error: 'invalid_client',
          message: expect.stringMatching(/first-party/),
        });
      }
      const events = await h.events('oauth.direct_login.rejected', thirdParty.clientId);
      expect(events).toHaveLength(2);
      expect(events[0]).toMatchObject({
        actorType: 'client',
        clientId: thirdParty.clientId,
        ipAddress: '127.0.0.1',
        data: { client_id: thirdParty.clientId, route: '/svc/auth/password/login' },
      });
      expect(await h.events('oauth.direct_login.rejected', unknownClient)).toHaveLength(1);
      expect(await sessionsOf(ann.id)).toEqual([]);

      const before = (await h.events('oauth.direct_login.rejected', null)).length;
      const missing = await h.post('/password/login', { email: ann.email, password: DIRECT_PASSWORD });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ error: 'invalid_client' });
      const withoutClient = await h.events('oauth.direct_login.rejected', null);
      expect(withoutClient).toHaveLength(before + 1);
      expect(withoutClient.at(-1)?.data).toEqual({ client_id: null, route: '/svc/auth/password/login' });
    });

    it('lets a first-party client sign in without any rejection event', async () => {
      const ann = await h.given.user();
      const web = await h.given.client();
      const result = await h.login(ann.email, web.clientId);
      expect(result.tokens).toMatchObject({ clientId: web.clientId });
      expect(await h.events('oauth.direct_login.rejected', web.clientId)).toEqual([]);
    });

    it('refuses a third-party client on /signup before the account exists', async () => {
      const thirdParty = await h.given.client({ isFirstParty: false });
      const email = `${unique('eve')}@example.com`;
      const response = await h.post('/signup', {
        displayName: 'Eve',
        email,
        password: DIRECT_PASSWORD,
        organizationName: 'Eve Corp',
        clientId: thirdParty.clientId,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_client', message: expect.any(String) });
      const events = await h.events('oauth.direct_login.rejected', thirdParty.clientId);
      expect(events.map((e) => e.data)).toEqual([
        { client_id: thirdParty.clientId, route: '/svc/auth/signup' },
      ]);
      const users = await h.t.svc.admin.listUsersAsync({ limit: 200 });
      expect(users.data.map((u) => u.email)).not.toContain(email);
      const organizations = await h.t.svc.admin.listOrganizationsAsync({ limit: 200 });
      expect(organizations.data.map((o) => o.name)).not.toContain('Eve Corp');
    });

    it('refuses /select-organization for a pending token of a third-party client', async () => {
      const ann = await h.given.user();
      const thirdParty = await h.given.client({ isFirstParty: false });
      const [a, b] = [await h.given.organization(), await h.given.organization()];
      await h.given.membership(a.id, ann.id);
      await h.given.membership(b.id, ann.id);
      const outcome = await h.t.svc.authEngine.signIn.signIn({
        userId: ann.id,
        clientId: thirdParty.clientId,
        requestedOrganizationId: null,
        amr: ['pwd'],
        authTime: h.t.clock.now(),
        flow: 'direct',
      });
      if (outcome.kind !== 'organization_selection') throw new Error('expected a selection');

      const response = await h.post('/select-organization', {
        pendingAuthToken: outcome.pendingAuthToken,
        organizationId: a.id,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: 'invalid_client' });
      const events = await h.events('oauth.direct_login.rejected', thirdParty.clientId);
      expect(events.map((e) => e.data)).toEqual([
        { client_id: thirdParty.clientId, route: '/svc/auth/select-organization' },
      ]);
      expect(await sessionsOf(ann.id)).toEqual([]);
    });
  });

  describe('the login result', () => {
    it('completes at once for a user with no organization or exactly one', async () => {
      const web = await h.given.client();
      const loner = await h.given.user();
      expect(await h.login(loner.email, web.clientId)).toEqual({
        requiresOrganizationSelection: false,
        pendingAuthToken: null,
        organizations: [],
        tokens: {
          accessToken: expect.any(String),
          refreshToken: expect.any(String),
          sessionId: expect.any(String),
          clientId: web.clientId,
          organizationId: null,
          accessTokenExpiresAt: new Date(h.t.clock.now() + 15 * 60_000).toISOString(),
          refreshTokenExpiresAt: expect.any(String),
        },
        requiresMfa: false,
        mfaToken: null,
        requiresMfaEnrollment: false,
        mfaMethods: null,
      });

      const member = await h.given.user();
      const only = await h.given.organization();
      await h.given.membership(only.id, member.id);
      expect((await h.login(member.email, web.clientId)).tokens?.organizationId).toBe(only.id);
    });

    it('skips the selection for a requested organization and refuses one the user is not in', async () => {
      const web = await h.given.client();
      const ann = await h.given.user();
      const [a, b, stranger] = [
        await h.given.organization(),
        await h.given.organization(),
        await h.given.organization(),
      ];
      await h.given.membership(a.id, ann.id);
      await h.given.membership(b.id, ann.id);
      expect((await h.login(ann.email, web.clientId, b.id)).tokens?.organizationId).toBe(b.id);

      const refused = await h.post('/password/login', {
        email: ann.email,
        password: DIRECT_PASSWORD,
        clientId: web.clientId,
        organizationId: stranger.id,
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: 'access_denied', message: expect.any(String) });
    });

    it('continues an organization selection once, and only into an offered organization', async () => {
      const web = await h.given.client();
      const ann = await h.given.user();
      const [a, b, stranger] = [
        await h.given.organization(),
        await h.given.organization(),
        await h.given.organization(),
      ];
      await h.given.membership(a.id, ann.id);
      await h.given.membership(b.id, ann.id);
      const select = (pendingAuthToken: string, organizationId: string) =>
        h.post('/select-organization', { pendingAuthToken, organizationId });

      const first = await h.login(ann.email, web.clientId);
      expect(first.requiresOrganizationSelection).toBe(true);
      expect(first.organizations.map((o) => o.id).sort()).toEqual([a.id, b.id].sort());
      const token = first.pendingAuthToken ?? '';
      const foreign = await select(token, stranger.id);
      expect(foreign.statusCode).toBe(403);
      expect(foreign.json()).toMatchObject({ error: 'access_denied' });

      const second = await h.login(ann.email, web.clientId);
      const done = await select(second.pendingAuthToken ?? '', b.id);
      expect(done.statusCode, done.body).toBe(200);
      expect(svcLoginResultSchema.parse(done.json()).tokens).toMatchObject({ organizationId: b.id });

      const reused = await select(second.pendingAuthToken ?? '', b.id);
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toMatchObject({ error: 'invalid_token', message: expect.any(String) });
      const unknown = await select('not-a-pending-token', b.id);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json()).toMatchObject({ error: 'invalid_token' });
    });

    it('answers a wrong password and an unknown email with the same 401', async () => {
      const web = await h.given.client();
      const ann = await h.given.user();
      const wrong = await h.post('/password/login', {
        email: ann.email,
        password: 'not the password',
        clientId: web.clientId,
      });
      const unknown = await h.post('/password/login', {
        email: `${unique('nobody')}@example.com`,
        password: 'not the password',
        clientId: web.clientId,
      });
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.json()).toMatchObject({ error: 'invalid_credentials' });
      expect(await sessionsOf(ann.id)).toEqual([]);
    });

    it('reads field names case-insensitively and records the user agent and address on the session', async () => {
      const web = await h.given.client();
      const ann = await h.given.user();
      const response = await h.post(
        '/password/login',
        { EMAIL: ann.email, Password: DIRECT_PASSWORD, clientID: web.clientId },
        { 'user-agent': `Example/1.0 ${'x'.repeat(2000)}` },
      );
      expect(response.statusCode, response.body).toBe(200);
      const [session] = await sessionsOf(ann.id);
      expect(session?.ipAddress).toBe('127.0.0.1');
      expect(session?.userAgent).toHaveLength(512);
      expect(session?.userAgent?.startsWith('Example/1.0 ')).toBe(true);
    });
  });

  describe('signup', () => {
    it('creates a user without an organization when no organizationName is given', async () => {
      const web = await h.given.client();
      const email = `${unique('solo')}@example.com`;
      const response = await h.post('/signup', {
        displayName: 'Solo',
        email,
        password: DIRECT_PASSWORD,
        organizationName: '',
        clientId: web.clientId,
      });
      expect(response.statusCode, response.body).toBe(200);
      const result = svcLoginResultSchema.parse(response.json());
      expect(result.tokens).toMatchObject({ clientId: web.clientId, organizationId: null });
      // The new account signs in with its password.
      expect((await h.login(email, web.clientId)).tokens?.organizationId).toBeNull();
    });

    it('refuses an organizationId, naming the field, and creates nothing', async () => {
      const web = await h.given.client();
      const organization = await h.given.organization();
      const email = `${unique('joiner')}@example.com`;
      const response = await h.post('/signup', {
        displayName: 'Joiner',
        email,
        password: DIRECT_PASSWORD,
        clientId: web.clientId,
        organizationId: organization.id,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        error: 'invalid_request',
        message: expect.stringMatching(
          /organizationId: .*self-service signup never joins an existing organization/,
        ),
        details: [{ path: 'organizationId', message: expect.any(String) }],
      });
      const users = await h.t.svc.admin.listUsersAsync({ limit: 200 });
      expect(users.data.map((u) => u.email)).not.toContain(email);
    });

    it('refuses a taken email with a clear 409', async () => {
      const web = await h.given.client();
      const ann = await h.given.user();
      const response = await h.post('/signup', {
        displayName: 'Ann Again',
        email: `  ${ann.email.toUpperCase()} `,
        password: DIRECT_PASSWORD,
        clientId: web.clientId,
      });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        error: 'conflict',
        message: 'A user with this email address already exists.',
      });
    });
  });
});
