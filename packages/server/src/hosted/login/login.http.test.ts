import type { SvcCreatedClient } from '@svc/contract';
import type { TestUser } from '../../test-support/hosted-test-app.js';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DAY_MS } from '../../kernel/clock.js';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { HOSTED_MESSAGES } from '../form.js';

describeEachDatabase('hosted sign-in pages', (kind) => {
  let h: HostedTestApp;
  let user: TestUser;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    user = await h.given.user();
    web = await h.given.client();
  });
  afterAll(async () => {
    await h.close();
  });

  const code = (response: LightMyRequestResponse) =>
    InjectBrowser.location(response).searchParams.get('code');

  /** A browser at the identify step of a new request. */
  async function atIdentify(): Promise<InjectBrowser> {
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    expect(b.page).toContain(`action="${h.authBase}/login/identify"`);
    return b;
  }

  /** A browser at the password step for `email`. */
  async function atPassword(email = user.email): Promise<InjectBrowser> {
    const b = await atIdentify();
    const page = await b.follow(await b.post('/login/identify', { email }));
    expect(page.body).toContain('Enter your password');
    return b;
  }

  it('identify: an empty or malformed email comes back with an inline error; a valid one leads to the password step', async () => {
    const b = await atIdentify();
    const empty = await b.post('/login/identify', { email: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(HOSTED_MESSAGES.emailRequired);
    const malformed = await b.post('/login/identify', { email: 'not-an-email' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).toContain(HOSTED_MESSAGES.emailInvalid);
    expect(malformed.body).toMatch(/id="email"[^>]*value="not-an-email"/s);

    const identified = await b.post('/login/identify', { email: ` ${user.email} ` });
    expect(identified.statusCode).toBe(303);
    const location = InjectBrowser.location(identified);
    expect(location.pathname).toBe(`${h.authBase}/login`);
    expect(location.searchParams.get('request_id')).toBe(b.fields.request_id);
    const password = await b.follow(identified);
    expect(password.body).toContain('Enter your password');
    expect(password.body).toMatch(new RegExp(`id="email"[^>]*readonly[^>]*value="${user.email}"`, 's'));
    // Reloading the step shows it again (post/redirect/get).
    expect((await b.get(location.toString())).body).toContain('Enter your password');
  });

  it('password: a wrong password and an unknown email get the same page, and nothing is signed in', async () => {
    const before = (await h.auditEvents('oauth.hosted_login.failed')).length;
    const pages: string[] = [];
    for (const [email, password] of [
      [user.email, 'wrong password'],
      ['nobody@example.com', HOSTED_PASSWORD],
    ] as const) {
      const b = await atPassword(email);
      const response = await b.post('/login/password', { password });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(HOSTED_MESSAGES.invalidCredentials);
      expect(setCookies(response).map((c) => c.name)).not.toContain('svc_session');
      pages.push(
        response.body
          .replaceAll(email, 'EMAIL')
          .replaceAll(b.fields.request_id ?? '', 'REQUEST')
          .replace(/value="[^"]*"/g, 'value=""'),
      );
    }
    expect(pages[0]).toBe(pages[1]);
    const empty = await (await atPassword()).post('/login/password', { password: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain(HOSTED_MESSAGES.passwordRequired);
    const failures = await h.auditEvents('oauth.hosted_login.failed');
    expect(failures).toHaveLength(before + 2);
    expect(failures.at(-1)).toMatchObject({ clientId: web.clientId, userId: null });
  });

  it('a successful sign-in sets the issuer session cookie: HttpOnly, SameSite=Lax, the auth base path, the session lifetime', async () => {
    const b = await atPassword();
    const response = await b.post('/login/password', { password: HOSTED_PASSWORD });
    expect(response.statusCode).toBe(303);
    expect(code(response)).toBeTruthy();
    const session = setCookies(response).find((c) => c.name === 'svc_session');
    expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(session?.attributes).toEqual({
      'max-age': String((14 * DAY_MS) / 1000),
      path: h.authBase,
      httponly: '',
      samesite: 'Lax',
    });
    expect(await h.auditEvents('oauth.hosted_login.succeeded')).toContainEqual(
      expect.objectContaining({ userId: user.id, clientId: web.clientId }),
    );
  });

  it('the issuer session cookie is Secure outside loopback', async () => {
    const origin = 'https://id.example.com';
    const secure = await createHostedTestApp('sqlite', { publicOrigin: origin });
    try {
      const member = await secure.given.user();
      const client = await secure.given.client();
      const b = new InjectBrowser(secure, origin);
      const done = await b.signIn(
        await b.authorize(authorizeQuery(client.clientId)),
        member.email,
        HOSTED_PASSWORD,
      );
      expect(code(done)).toBeTruthy();
      expect(setCookies(done).find((c) => c.name === 'svc_session')?.attributes).toMatchObject({
        secure: '',
        httponly: '',
      });
    } finally {
      await secure.close();
    }
  });

  it('antiforgery: a post without the token, from another origin or another browser is refused with 400 before anything runs', async () => {
    const before = (await h.auditEvents('oauth.hosted_login.failed')).length;
    const b = await atPassword();
    const requestPage = `${h.authBase}/login?request_id=${b.fields.request_id}`;
    const refused = [
      await b.post('/login/password', { password: HOSTED_PASSWORD }, { withoutToken: true }),
      await b.post('/login/password', { password: 'wrong password' }, { withoutToken: true }),
      await b.post('/login/password', { password: HOSTED_PASSWORD }, { origin: 'https://evil.example.com' }),
      await b.post('/login/password', { password: HOSTED_PASSWORD }, { origin: null }),
    ];
    // The same form posted with the cookie of another browser.
    const other = new InjectBrowser(h);
    await other.follow(await other.authorize(authorizeQuery(web.clientId)));
    other.page = b.page;
    refused.push(await other.post('/login/password', { password: HOSTED_PASSWORD }));
    for (const response of refused) {
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('This form has expired');
      expect(response.body).not.toContain(HOSTED_MESSAGES.invalidCredentials);
      expect(setCookies(response).map((c) => c.name)).not.toContain('svc_session');
    }
    // Nothing was processed: no attempt was counted and the request still waits for the password.
    expect(await h.auditEvents('oauth.hosted_login.failed')).toHaveLength(before);
    expect((await b.get(requestPage)).body).toContain('Enter your password');
    expect(code(await b.post('/login/password', { password: HOSTED_PASSWORD }))).toBeTruthy();
  });

  it('"Use a different account" returns to the identify step, and identifying again forgets the first account', async () => {
    const first = await h.given.user();
    await h.given.organization(undefined, first.id);
    await h.given.organization(undefined, first.id);
    const second = await h.given.user();
    const b = new InjectBrowser(h);
    const { verifier, challenge } = pkcePair();
    const choose = await b.signIn(
      await b.authorize(authorizeQuery(web.clientId, { scope: 'openid' }, challenge)),
      first.email,
      HOSTED_PASSWORD,
    );
    expect(choose.body).toContain('Choose an organization');
    const identify = await b.click('Use a different account');
    expect(identify.body).toContain(`action="${h.authBase}/login/identify"`);
    expect(identify.body).toMatch(new RegExp(`id="email"[^>]*value="${first.email}"`, 's'));
    await b.follow(await b.post('/login/identify', { email: second.email }));
    const done = await b.follow(await b.post('/login/password', { password: HOSTED_PASSWORD }));
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    expect(decodeJwt(tokens.idToken ?? '').sub).toBe(second.id);
  });

  it("organization selection: a foreign organization comes back with an error; another request's token changes nothing", async () => {
    const member = await h.given.user();
    const org = await h.given.organization(undefined, member.id);
    await h.given.organization(undefined, member.id);
    const foreign = await h.given.organization();
    const b = new InjectBrowser(h);
    const { verifier, challenge } = pkcePair();
    await b.signIn(
      await b.authorize(authorizeQuery(web.clientId, { scope: 'openid' }, challenge)),
      member.email,
      HOSTED_PASSWORD,
    );
    const first = b.fields;
    // A second request in the same browser reuses the session and asks for the organization too.
    await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    const second = b.fields;
    expect(second.request_id).not.toBe(first.request_id);
    expect(second.pending_token).not.toBe(first.pending_token);

    for (const organizationId of [foreign.id, '', 'org\u0000x']) {
      const response = await b.post('/login/select-organization', {
        ...first,
        organization_id: organizationId,
      });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain(HOSTED_MESSAGES.organizationRequired);
    }
    const crossed = await b.post('/login/select-organization', {
      ...first,
      pending_token: second.pending_token ?? '',
      organization_id: org.id,
    });
    expect(crossed.statusCode).toBe(303);
    expect(InjectBrowser.location(crossed).searchParams.get('request_id')).toBe(first.request_id);

    const done = await b.post('/login/select-organization', { ...first, organization_id: org.id });
    const tokens = await h.redeem(InjectBrowser.location(done), web.clientId, verifier);
    expect(decodeJwt(tokens.accessToken)).toMatchObject({ sub: member.id, org_id: org.id });
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({ org_id: org.id });
    // The used token, once more: the request is finished.
    const replay = await b.post('/login/select-organization', { ...first, organization_id: org.id });
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('This sign-in has expired');
  });

  it('malformed posts are 4xx pages, never 5xx', async () => {
    const b = await atPassword();
    const requestId = b.fields.request_id ?? '';
    const bodies = [
      `_csrf=${encodeURIComponent(b.fields._csrf ?? '')}&request_id=${requestId}&request_id=${requestId}&password=x`,
      `_csrf=${encodeURIComponent(b.fields._csrf ?? '')}&request_id=azr%00x&password=x`,
      `_csrf=${encodeURIComponent(b.fields._csrf ?? '')}&request_id=${'a'.repeat(5000)}&password=x`,
      `_csrf=${encodeURIComponent(b.fields._csrf ?? '')}&password=x`,
    ];
    const cookie = [...b.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    for (const path of [
      '/login/identify',
      '/login/password',
      '/login/select-organization',
      '/consent/approve',
      '/consent/deny',
    ]) {
      for (const payload of bodies) {
        const response = await h.inject({
          method: 'POST',
          url: `${h.authBase}${path}`,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            origin: 'http://localhost:8080',
            cookie,
          },
          payload,
        });
        expect(response.statusCode, `${path} ${payload.slice(0, 80)}`).toBe(400);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      }
    }
    const weird = await b.post('/login/identify', { email: 'a\u0000@example.com' });
    expect(weird.statusCode).toBe(400);
    const json = await h.inject({
      method: 'POST',
      url: `${h.authBase}/login/password`,
      headers: { 'content-type': 'application/json', origin: 'http://localhost:8080', cookie },
      payload: '{"password":"x"}',
    });
    expect(json.statusCode).toBeGreaterThanOrEqual(400);
    expect(json.statusCode).toBeLessThan(500);
    for (const query of ['', '?request_id=', '?request_id=%00', `?request_id=${requestId}&request_id=x`]) {
      const response = await b.get(`${h.authBase}/login${query}`);
      expect(response.statusCode, query).toBe(400);
    }
  });
});
