import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_REDIRECT_URI, authorizeQuery } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import {
  createDirectHarness,
  DIRECT_PASSWORD,
  unique,
  type DirectHarness,
} from '../test-support/direct-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { linkIn, readOutbox } from '../test-support/outbox.js';
import { endedSession, probeSession, type HeldTokens } from '../test-support/session-probe.js';

const ADMIN = '/svc/admin/auth/api';
const LIVE = { userinfo: 200, validated: true, refresh: 'ok' };

describeAboveStorage('deactivating and reactivating a user', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  const patchUser = async (userId: string, active: boolean) => {
    const response = await h.inject({
      method: 'PATCH',
      url: `${ADMIN}/users/${userId}`,
      headers: h.t.operator,
      payload: { active },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: userId, active });
  };
  const tokensOf = async (email: string, clientId: string): Promise<HeldTokens> => {
    const { tokens } = await h.login(email, clientId);
    if (tokens === null) throw new Error('the login did not complete');
    return tokens;
  };
  const passwordLogin = (email: string, clientId: string) =>
    h.post('/password/login', { email, password: DIRECT_PASSWORD, clientId });

  it('ends every session at once, refuses sign-in generically, and reactivation restores sign-in only', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const bystander = await h.given.user();
    const sessions = [
      await tokensOf(user.email, client.clientId),
      await tokensOf(user.email, client.clientId),
    ];
    const bystanderSession = await tokensOf(bystander.email, client.clientId);
    const before = await probeSession(h.t.svc, sessions[0]!, client);
    expect(before).toMatchObject(LIVE);
    sessions[0] = before.next!;

    await patchUser(user.id, false);
    for (const tokens of sessions)
      expect(await probeSession(h.t.svc, tokens, client)).toEqual(endedSession());
    expect(await probeSession(h.t.svc, bystanderSession, client)).toMatchObject(LIVE);

    // The same answer as for an address nobody has: nothing tells that the account exists.
    const refused = await passwordLogin(user.email, client.clientId);
    const unknown = await passwordLogin(`${unique('nobody')}@example.com`, client.clientId);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(unknown.json());
    expect(refused.json()).toMatchObject({ error: 'invalid_credentials' });

    const [deactivated] = (await h.events('admin.user.deactivated')).filter((e) => e.userId === user.id);
    expect(deactivated).toMatchObject({
      actorType: 'operator',
      data: { sessionsRevoked: 2, browserSessionsEnded: 0 },
    });

    await patchUser(user.id, true);
    expect((await passwordLogin(user.email, client.clientId)).statusCode).toBe(200);
    for (const tokens of sessions)
      expect(await probeSession(h.t.svc, tokens, client)).toEqual(endedSession());
    expect((await h.events('admin.user.reactivated')).filter((e) => e.userId === user.id)).toHaveLength(1);

    // Deactivating a deactivated user, or reactivating an active one, changes and records nothing.
    await patchUser(user.id, true);
    expect((await h.events('admin.user.reactivated')).filter((e) => e.userId === user.id)).toHaveLength(1);
  });

  it('refuses the one-time-code and link sign-ins of a deactivated user, even a link sent before', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const sent = async () => (await readOutbox(h.t.svc.email, { to: user.email })).length;
    expect(
      (await h.post('/magic-link/start', { email: user.email, clientId: client.clientId })).statusCode,
    ).toBe(200);
    const [message] = await readOutbox(h.t.svc.email, { to: user.email });
    const token = new URL(linkIn(message?.textBody ?? null)).searchParams.get('token') ?? '';

    await h.t.svc.admin.deactivateUserAsync(user.id);
    const complete = await h.post('/magic-link/complete', { token, clientId: client.clientId });
    const forged = await h.post('/magic-link/complete', { token: `${token}x`, clientId: client.clientId });
    expect(complete.statusCode).toBe(400);
    expect(complete.json()).toEqual(forged.json());

    h.t.clock.advance(10 * 60_000);
    const before = await sent();
    expect(
      (await h.post('/email-otp/start', { email: user.email, clientId: client.clientId })).statusCode,
    ).toBe(200);
    expect(await sent()).toBe(before);

    await h.t.svc.admin.reactivateUserAsync(user.id);
    h.t.clock.advance(10 * 60_000);
    expect(
      (await h.post('/email-otp/start', { email: user.email, clientId: client.clientId })).statusCode,
    ).toBe(200);
    expect(await sent()).toBe(before + 1);
  });

  it('ends the issuer session too, so that /authorize does not sign a reactivated user in silently', async () => {
    const client = await h.given.client();
    const user = await h.given.user();
    const browser = new InjectBrowser({ authBase: h.authBase, inject: (options) => h.inject(options) });
    const signedIn = await browser.signIn(
      await browser.authorize(authorizeQuery(client.clientId)),
      user.email,
      DIRECT_PASSWORD,
    );
    expect(InjectBrowser.location(signedIn).href.startsWith(CLIENT_REDIRECT_URI)).toBe(true);
    const silent = await browser.authorize(authorizeQuery(client.clientId));
    expect(InjectBrowser.location(silent).searchParams.get('code')).toEqual(expect.any(String));

    await patchUser(user.id, false);
    await patchUser(user.id, true);
    const after = await browser.follow(await browser.authorize(authorizeQuery(client.clientId)));
    expect(after.statusCode).toBe(200);
    expect(after.headers['content-type']).toMatch(/^text\/html/);
    expect(browser.fields).toHaveProperty('_csrf');
    const [deactivated] = (await h.events('admin.user.deactivated')).filter((e) => e.userId === user.id);
    expect(deactivated?.data).toEqual({ sessionsRevoked: 0, browserSessionsEnded: 1 });
  });
});
