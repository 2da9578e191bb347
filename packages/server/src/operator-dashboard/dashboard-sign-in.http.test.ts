import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, DIRECT_PASSWORD, type DirectHarness } from '../test-support/direct-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { TEST_ORIGIN } from '../test-support/test-svc.js';
import { DASHBOARD_CLIENT_ID } from './dashboard-client.js';

const ADMIN = '/svc/admin/auth/api';

describeAboveStorage('the dashboards sign operators in with a session cookie', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  /** A browser over the whole dashboard base, signed in through the hosted pages from /svc/login. */
  const signIn = async (email: string, start = '/svc/login') => {
    const browser = new InjectBrowser({ authBase: '/svc', inject: (options) => h.inject(options) });
    await browser.follow(await browser.get(start));
    await browser.follow(await browser.post('/auth/login/identify', { email }));
    const done = await browser.follow(
      await browser.post('/auth/login/password', { password: DIRECT_PASSWORD }),
    );
    return { browser, done };
  };
  const cookieOf = (browser: InjectBrowser) =>
    [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const operator = async () => {
    const user = await h.given.user();
    await h.t.svc.admin.setOperatorAsync(user.email);
    return user;
  };

  it('an operator gets the dashboard and calls the operator APIs with the cookie; writes need the antiforgery token', async () => {
    const user = await operator();
    const { browser, done } = await signIn(user.email);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.body).toContain('<div id="root">');
    const cookie = cookieOf(browser);

    const session = await h.inject({ method: 'GET', url: '/svc/api/session', headers: { cookie } });
    expect(session.statusCode).toBe(200);
    const { csrfToken, user: who } = session.json<{ csrfToken: string; user: { id: string } }>();
    expect(who.id).toBe(user.id);

    expect((await h.inject({ method: 'GET', url: `${ADMIN}/users`, headers: { cookie } })).statusCode).toBe(
      200,
    );
    const create = (headers: Record<string, string>) =>
      h.inject({
        method: 'POST',
        url: `${ADMIN}/organizations`,
        headers: { cookie, ...headers },
        payload: { name: 'Dash Org' },
      });
    expect((await create({ origin: TEST_ORIGIN })).statusCode).toBe(403);
    expect((await create({ 'x-svc-csrf': csrfToken, origin: 'https://evil.example' })).statusCode).toBe(403);
    const created = await create({ 'x-svc-csrf': csrfToken, origin: TEST_ORIGIN });
    expect(created.statusCode, created.body).toBe(201);
    const [event] = (await h.events('admin.organization.created')).filter((e) => e.actorId === user.id);
    expect(event).toMatchObject({ actorType: 'operator', actorId: user.id });
    // The FGA and email APIs name the operator of the cookie too.
    const write = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      h.inject({
        method,
        url,
        headers: { cookie, 'x-svc-csrf': csrfToken, origin: TEST_ORIGIN },
        ...(payload === undefined ? {} : { payload }),
      });
    const fga = '/svc/admin/fga/api';
    expect((await write('POST', `${fga}/resource-types`, { key: 'dash-doc', name: 'Doc' })).statusCode).toBe(
      201,
    );
    expect((await write('POST', `${fga}/groups`, { name: 'Dash group' })).statusCode).toBe(201);
    const template = '/svc/admin/email/api/templates/email.test';
    const override = { subject: 'Hi {{productName}}', textBody: 'x', htmlBody: 'y' };
    expect((await write('PUT', template, override)).statusCode).toBe(200);
    expect((await write('DELETE', template)).statusCode).toBe(200);
    for (const kind of [
      'fga.resource_type.created',
      'fga.group.created',
      'admin.email_template.updated',
      'admin.email_template.reset',
    ]) {
      expect(await h.events(kind), kind).toEqual([
        expect.objectContaining({ actorType: 'operator', actorId: user.id }),
      ]);
    }
    expect((await h.events('dashboard.session.started', DASHBOARD_CLIENT_ID)).map((e) => e.userId)).toContain(
      user.id,
    );
  });

  it('ends at once when the operator signs out, is deactivated or has the session revoked', async () => {
    const deactivated = await operator();
    const first = await signIn(deactivated.email);
    const listUsers = (cookie: string) =>
      h.inject({ method: 'GET', url: `${ADMIN}/users`, headers: { cookie } });
    expect((await listUsers(cookieOf(first.browser))).statusCode).toBe(200);
    await h.t.svc.admin.updateUserAsync(deactivated.id, { active: false });
    expect((await listUsers(cookieOf(first.browser))).statusCode).toBe(404);

    const leaving = await operator();
    const second = await signIn(leaving.email);
    const cookie = cookieOf(second.browser);
    const session = await h.inject({ method: 'GET', url: '/svc/api/session', headers: { cookie } });
    const { csrfToken } = session.json<{ csrfToken: string }>();
    const signedOut = await second.browser.post('/logout', { _csrf: csrfToken });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe('/svc/auth/logout');
    expect((await listUsers(cookie)).statusCode).toBe(404);
    expect((await h.inject({ method: 'GET', url: '/svc/', headers: { cookie } })).headers.location).toBe(
      '/svc/login',
    );
    expect((await h.events('dashboard.session.ended', DASHBOARD_CLIENT_ID)).map((e) => e.userId)).toContain(
      leaving.id,
    );
  });

  it('serves the built app only with a session, and its hashed assets to anyone; nothing else of dist', async () => {
    const { browser } = await signIn((await operator()).email);
    const app = await h.inject({ method: 'GET', url: '/svc/', headers: { cookie: cookieOf(browser) } });
    expect(app.statusCode).toBe(200);
    expect(app.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(app.headers['cache-control']).toBe('no-store');
    expect(app.headers['content-security-policy']).toContain("script-src 'self';");
    // Inline style only with this response's nonce (React Aria's <style> elements carry it).
    const nonce = /<meta name="csp-nonce" nonce="([A-Za-z0-9_-]{24})" \/>/.exec(app.body)?.[1];
    expect(app.headers['content-security-policy']).toContain(`style-src 'self' 'nonce-${nonce}';`);
    const again = await h.inject({ method: 'GET', url: '/svc/', headers: { cookie: cookieOf(browser) } });
    expect(again.body).not.toContain(String(nonce));
    const script = /src="\/svc\/(assets\/[^"]+\.js)"/.exec(app.body)?.[1];
    expect(script).toBeDefined();
    const bare = await h.inject({ method: 'GET', url: '/svc', headers: { cookie: cookieOf(browser) } });
    expect(bare.headers.location).toBe('/svc/');

    expect((await h.inject({ method: 'GET', url: '/svc/' })).headers.location).toBe('/svc/login');
    const asset = await h.inject({ method: 'GET', url: `/svc/${script}` });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/svc/assets/../index.html', '/svc/assets/%2e%2e/index.html', '/svc/assets/nope.js']) {
      expect((await h.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });

  it('answers the app at every console link, and the sign-in returns to the link it began from', async () => {
    const user = await operator();
    const deepLink = `/svc/users/${user.id}?tab=sessions`;
    const away = await h.inject({ method: 'GET', url: deepLink });
    expect(away.statusCode).toBe(303);
    expect(away.headers.location).toBe(`/svc/login?returnTo=${encodeURIComponent(deepLink)}`);
    const { browser, done } = await signIn(user.email, String(away.headers.location));
    expect(browser.url).toBe(deepLink);
    expect(done.body).toContain('<div id="root">');

    const cookie = cookieOf(browser);
    for (const url of ['/svc/overview', '/svc/audit?kind=admin.*', '/svc/organizations/org_1/members']) {
      const page = await h.inject({ method: 'GET', url, headers: { cookie } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<meta name="svc-dashboard-base" content="/svc" />');
    }
    // Not a console section: the ordinary not-found answer, not the app.
    expect((await h.inject({ method: 'GET', url: '/svc/nowhere', headers: { cookie } })).statusCode).toBe(
      404,
    );

    // A return path that would leave the console is dropped: the sign-in ends at the console's home.
    const elsewhere = await signIn(
      user.email,
      `/svc/login?returnTo=${encodeURIComponent('//evil.example/')}`,
    );
    expect(elsewhere.browser.url).toBe('/svc/');
  });

  it('refuses a user who is not an operator, a stale state and a forged cookie', async () => {
    const user = await h.given.user();
    const { done } = await signIn(user.email);
    expect(done.statusCode).toBe(403);
    expect(done.body).toContain('svc operator add');
    expect((await h.events('dashboard.session.refused', DASHBOARD_CLIENT_ID)).map((e) => e.userId)).toContain(
      user.id,
    );

    const stale = await h.inject({ method: 'GET', url: '/svc/callback?code=x&state=y' });
    expect(stale.statusCode).toBe(400);
    const forged = `svc_dashboard=${'A'.repeat(43)}`;
    expect(
      (await h.inject({ method: 'GET', url: `${ADMIN}/users`, headers: { cookie: forged } })).statusCode,
    ).toBe(404);
    expect(
      (await h.inject({ method: 'GET', url: '/svc/api/session', headers: { cookie: forged } })).statusCode,
    ).toBe(404);
    // The bearer token still works beside a dashboard cookie.
    const both = await h.inject({
      method: 'GET',
      url: `${ADMIN}/users`,
      headers: { ...h.t.operator, cookie: forged },
    });
    expect(both.statusCode).toBe(200);
  });

  it("never locks an operator out: after many forged cookies from the operator's address the real one works", async () => {
    const { browser } = await signIn((await operator()).email);
    const remoteAddress = '198.51.100.44';
    for (let i = 0; i < 30; i += 1) {
      const forged = `svc_dashboard=${String(i).padStart(43, 'B')}`;
      const refused = await h.inject({
        method: 'GET',
        url: `${ADMIN}/users`,
        remoteAddress,
        headers: { cookie: forged },
      });
      expect(refused.statusCode).toBe(404);
    }
    const cookie = cookieOf(browser);
    const api = await h.inject({ method: 'GET', url: `${ADMIN}/users`, remoteAddress, headers: { cookie } });
    expect(api.statusCode, api.body).toBe(200);
    const app = await h.inject({
      method: 'GET',
      url: '/svc/api/session',
      remoteAddress,
      headers: { cookie },
    });
    expect(app.statusCode, app.body).toBe(200);
  });
});
