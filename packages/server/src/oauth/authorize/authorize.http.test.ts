import type { SvcCreatedClient } from '@svc/contract';
import type { TestUser } from '../../test-support/hosted-test-app.js';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeQuery, CLIENT_REDIRECT_URI, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';
import { OAuthError } from '../errors.js';

const FILES = 'https://files.example.com/';

describeAboveStorage('GET /authorize', (kind) => {
  let h: HostedTestApp;
  let user: TestUser;
  let web: SvcCreatedClient;
  let issuer: string;

  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    issuer = h.t.svc.config.issuer;
    user = await h.given.user();
    web = await h.given.client({
      allowedScopes: ['openid', 'profile', 'email'],
      allowedResources: [FILES],
    });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A browser that signed `user` in once (its issuer session cookie makes later requests silent). */
  async function signedInBrowser(email = user.email): Promise<InjectBrowser> {
    const b = new InjectBrowser(h);
    const done = await b.signIn(await b.authorize(authorizeQuery(web.clientId)), email, HOSTED_PASSWORD);
    expect(done.statusCode).toBe(303);
    expect(InjectBrowser.location(done).searchParams.get('code')).toBeTruthy();
    return b;
  }

  const to = (response: LightMyRequestResponse) => InjectBrowser.location(response);
  const params = (response: LightMyRequestResponse) => to(response).searchParams;
  const isLoginPage = (response: LightMyRequestResponse) =>
    response.statusCode === 302 && to(response).pathname === `${h.authBase}/login`;

  describe('phase 1: a client or redirect URI that cannot be trusted', () => {
    it('renders the hosted error page (400) and redirects nowhere', async () => {
      const b = new InjectBrowser(h);
      const cases: Record<string, string>[] = [
        authorizeQuery(web.clientId, { client_id: undefined }),
        authorizeQuery('no-such-client'),
        authorizeQuery(web.clientId, { redirect_uri: undefined }),
        authorizeQuery(web.clientId, { redirect_uri: 'https://evil.example.com/callback' }),
        authorizeQuery(web.clientId, { redirect_uri: `${CLIENT_REDIRECT_URI}/` }),
        authorizeQuery(web.clientId, { redirect_uri: CLIENT_REDIRECT_URI.toUpperCase() }),
        authorizeQuery(web.clientId, { client_id: 'bad\u0000id' }),
      ];
      for (const query of cases) {
        const response = await b.authorize(query);
        expect(response.statusCode, JSON.stringify(query)).toBe(400);
        expect(response.headers.location).toBeUndefined();
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.body).toContain('This sign-in link is not valid');
      }
      // A repeated parameter cannot be trusted either.
      const repeated = await b.get(
        `${h.authBase}/authorize?${new URLSearchParams(authorizeQuery(web.clientId)).toString()}&client_id=${web.clientId}`,
      );
      expect(repeated.statusCode).toBe(400);
      expect(repeated.headers.location).toBeUndefined();
    });
  });

  describe('phase 2: errors go back to the client', () => {
    it('redirects to the registered URI with error, description, the state and iss', async () => {
      const b = new InjectBrowser(h);
      const cases: [Record<string, string | undefined>, string][] = [
        [{ response_type: undefined }, 'invalid_request'],
        [{ response_type: 'token' }, 'unsupported_response_type'],
        [{ code_challenge: undefined }, 'invalid_request'],
        [{ code_challenge_method: 'plain' }, 'invalid_request'],
        [{ code_challenge_method: undefined }, 'invalid_request'],
        [{ code_challenge: 'too-short' }, 'invalid_request'],
        [{ resource: 'https://elsewhere.example.com/' }, 'invalid_target'],
        [{ prompt: 'none login' }, 'invalid_request'],
        [{ max_age: '-1' }, 'invalid_request'],
      ];
      for (const [patch, error] of cases) {
        const response = await b.authorize(authorizeQuery(web.clientId, patch));
        expect(response.statusCode, JSON.stringify(patch)).toBe(302);
        const location = to(response);
        expect(`${location.origin}${location.pathname}`).toBe(CLIENT_REDIRECT_URI);
        expect(Object.fromEntries(location.searchParams)).toEqual({
          error,
          error_description: expect.any(String),
          state: 'state-123',
          iss: issuer,
        });
      }
    });
  });

  it('state: returned unchanged (1-2048 characters), omitted when absent, never echoed when invalid', async () => {
    const b = await signedInBrowser();
    for (const state of ['a b&c=d/é?#', 'x'.repeat(2048)]) {
      const response = await b.authorize(authorizeQuery(web.clientId, { state }));
      expect(params(response).get('state')).toBe(state);
      expect(params(response).get('code')).toBeTruthy();
    }
    const without = await b.authorize(authorizeQuery(web.clientId, { state: undefined }));
    expect(params(without).get('code')).toBeTruthy();
    expect(params(without).has('state')).toBe(false);
    for (const state of ['x'.repeat(2049), '']) {
      const invalid = await b.authorize(authorizeQuery(web.clientId, { state }));
      expect(params(invalid).get('error')).toBe('invalid_request');
      expect(params(invalid).has('state')).toBe(false);
    }
  });

  it('scope: intersected with the allow-list, unknown dropped, in the redirect only when non-empty', async () => {
    const b = await signedInBrowser();
    const narrow = await h.given.client({ allowedScopes: [] });
    const { verifier, challenge } = pkcePair();
    const cases: [string, string | undefined, SvcCreatedClient, string | null][] = [
      ['openid email admin:all bogus "quoted"', undefined, web, 'openid email'],
      ['profile', undefined, web, 'profile'],
      ['', undefined, web, null],
      ['openid profile', undefined, narrow, null],
    ];
    for (const [scope, , client, granted] of cases) {
      const response = await b.authorize(
        authorizeQuery(client.clientId, { scope: scope === '' ? undefined : scope }, challenge),
      );
      expect(params(response).get('code'), scope).toBeTruthy();
      expect(params(response).get('scope')).toBe(granted);
      const tokens = await h.redeem(to(response), client.clientId, verifier);
      expect(tokens.scope).toEqual(granted === null ? [] : granted.split(' '));
      // openid is never implied: an ID token only when it was asked for and allowed.
      expect(tokens.idToken !== undefined).toBe(granted?.split(' ').includes('openid') ?? false);
    }
  });

  it('PKCE: the S256 challenge is bound to the code and verified at redemption', async () => {
    const b = await signedInBrowser();
    const { verifier, challenge } = pkcePair();
    const first = await b.authorize(authorizeQuery(web.clientId, {}, challenge));
    await expect(h.redeem(to(first), web.clientId, pkcePair().verifier)).rejects.toMatchObject({
      code: 'invalid_grant',
    });
    const second = await b.authorize(authorizeQuery(web.clientId, {}, challenge));
    expect((await h.redeem(to(second), web.clientId, verifier)).accessToken).toBeTruthy();
  });

  it('resource: bound to the code (the access token audience); another resource at redemption is invalid_target', async () => {
    const b = await signedInBrowser();
    const { verifier, challenge } = pkcePair();
    const bound = await b.authorize(authorizeQuery(web.clientId, { resource: FILES }, challenge));
    const error = await h
      .redeem(to(bound), web.clientId, verifier, { resource: 'https://api.example.com' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toMatchObject({ code: 'invalid_target' });
    const again = await b.authorize(authorizeQuery(web.clientId, { resource: FILES }, challenge));
    const tokens = await h.redeem(to(again), web.clientId, verifier, { resource: FILES });
    expect(decodeJwt(tokens.accessToken).aud).toBe(FILES);
    const unbound = await b.authorize(authorizeQuery(web.clientId, {}, challenge));
    expect(decodeJwt((await h.redeem(to(unbound), web.clientId, verifier)).accessToken).aud).toBe(
      'https://api.example.com',
    );
  });

  it('nonce: copied onto the code and echoed by the ID token', async () => {
    const b = await signedInBrowser();
    const { verifier, challenge } = pkcePair();
    const response = await b.authorize(
      authorizeQuery(web.clientId, { scope: 'openid', nonce: 'n-0S6_WzA2Mj' }, challenge),
    );
    const tokens = await h.redeem(to(response), web.clientId, verifier);
    expect(decodeJwt(tokens.idToken ?? '')).toMatchObject({ nonce: 'n-0S6_WzA2Mj', aud: web.clientId });
  });

  it('login_hint prefills the identify step', async () => {
    const b = new InjectBrowser(h);
    const page = await b.follow(
      await b.authorize(authorizeQuery(web.clientId, { login_hint: 'hint@example.com' })),
    );
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/id="email"[^>]*value="hint@example\.com"/s);
    expect(page.body).toContain(`action="${h.authBase}/login/identify"`);
  });

  it('view: each view opens its first page; view=password with an email hint opens the password step', async () => {
    const b = new InjectBrowser(h);
    const entries: Record<string, string> = {
      svc: '/login',
      login: '/login',
      password: '/login',
      signup: '/signup',
      'forgot-password': '/password/forgot',
      'email-otp': '/login/email-otp',
      'phone-otp': '/login/phone-otp',
      'phone-otp-signup': '/signup/phone-otp',
    };
    for (const [view, path] of Object.entries(entries)) {
      const started = await b.authorize(authorizeQuery(web.clientId, { view }));
      expect(started.statusCode).toBe(302);
      expect(to(started).pathname).toBe(`${h.authBase}${path}`);
      expect(to(started).searchParams.get('request_id')).toMatch(/^azr_/);
    }
    const password = await b.follow(
      await b.authorize(authorizeQuery(web.clientId, { view: 'password', login_hint: user.email })),
    );
    expect(password.body).toContain(`action="${h.authBase}/login/password"`);
    expect(password.body).toContain(`value="${user.email}"`);
    // A hint that is no email leaves the identify step, prefilled.
    const identify = await b.follow(
      await b.authorize(authorizeQuery(web.clientId, { view: 'password', login_hint: 'ada' })),
    );
    expect(identify.body).toContain(`action="${h.authBase}/login/identify"`);
  });

  it('reuses the issuer session silently; prompt=login and prompt=select_account show the sign-in form', async () => {
    const b = await signedInBrowser();
    expect(params(await b.authorize(authorizeQuery(web.clientId))).get('code')).toBeTruthy();
    for (const prompt of ['login', 'select_account', 'login consent']) {
      const response = await b.authorize(authorizeQuery(web.clientId, { prompt }));
      expect(isLoginPage(response), prompt).toBe(true);
    }
  });

  it('prompt=none: login_required without a session, a code with one, interaction_required to choose an organization', async () => {
    const fresh = new InjectBrowser(h);
    const none = await fresh.authorize(authorizeQuery(web.clientId, { prompt: 'none' }));
    expect(Object.fromEntries(params(none))).toMatchObject({
      error: 'login_required',
      state: 'state-123',
      iss: issuer,
    });
    const b = await signedInBrowser();
    expect(
      params(await b.authorize(authorizeQuery(web.clientId, { prompt: 'none' }))).get('code'),
    ).toBeTruthy();

    const member = await h.given.user();
    await h.given.organization(undefined, member.id);
    await h.given.organization(undefined, member.id);
    const multi = new InjectBrowser(h);
    const choose = await multi.signIn(
      await multi.authorize(authorizeQuery(web.clientId)),
      member.email,
      HOSTED_PASSWORD,
    );
    expect(choose.body).toContain('Choose an organization');
    const silent = await multi.authorize(authorizeQuery(web.clientId, { prompt: 'none' }));
    expect(params(silent).get('error')).toBe('interaction_required');
  });

  it('max_age: an older authentication is re-challenged (login_required with prompt=none); 0 always forces the form', async () => {
    const b = await signedInBrowser();
    const signedInAt = h.t.clock.now();
    h.t.clock.advance(120_000);
    expect(isLoginPage(await b.authorize(authorizeQuery(web.clientId, { max_age: '60' })))).toBe(true);
    const stale = await b.authorize(authorizeQuery(web.clientId, { max_age: '60', prompt: 'none' }));
    expect(params(stale).get('error')).toBe('login_required');
    const { verifier, challenge } = pkcePair();
    const recent = await b.authorize(
      authorizeQuery(web.clientId, { max_age: '300', scope: 'openid' }, challenge),
    );
    const tokens = await h.redeem(to(recent), web.clientId, verifier);
    expect(decodeJwt(tokens.idToken ?? '').auth_time).toBe(Math.floor(signedInAt / 1000));
    expect(isLoginPage(await b.authorize(authorizeQuery(web.clientId, { max_age: '0' })))).toBe(true);
    const zero = await b.authorize(authorizeQuery(web.clientId, { max_age: '0', prompt: 'none' }));
    expect(params(zero).get('error')).toBe('login_required');
  });

  it('max_age=0 with a fresh sign-in completes; a positive max_age outlasted by organization selection signs in again', async () => {
    const fresh = new InjectBrowser(h);
    const zero = await fresh.signIn(
      await fresh.authorize(authorizeQuery(web.clientId, { max_age: '0' })),
      user.email,
      HOSTED_PASSWORD,
    );
    expect(params(zero).get('code')).toBeTruthy();

    const member = await h.given.user();
    const org = await h.given.organization(undefined, member.id);
    await h.given.organization(undefined, member.id);
    const b = new InjectBrowser(h);
    const choose = await b.signIn(
      await b.authorize(authorizeQuery(web.clientId, { max_age: '60' })),
      member.email,
      HOSTED_PASSWORD,
    );
    expect(choose.body).toContain('Choose an organization');
    h.t.clock.advance(61_000);
    const again = await b.follow(await b.post('/login/select-organization', { organization_id: org.id }));
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain('Enter your password');
    const chooseAgain = await b.follow(await b.post('/login/password', { password: HOSTED_PASSWORD }));
    const done = await b.follow(
      await b.post('/login/select-organization', { ...b.fields, organization_id: org.id }),
    );
    expect(chooseAgain.body).toContain('Choose an organization');
    expect(params(done).get('code')).toBeTruthy();
  });

  it('a request completes once; afterwards, when expired, or from another browser its steps say to start again', async () => {
    const b = new InjectBrowser(h);
    const start = await b.authorize(authorizeQuery(web.clientId));
    const loginUrl = start.headers.location as string;
    // Another browser with a request (and antiforgery cookie) of its own cannot use this request's id:
    // neither to see its pages nor to post its steps with its own valid form token.
    const stranger = new InjectBrowser(h);
    await stranger.follow(await stranger.authorize(authorizeQuery(web.clientId)));
    const requestId = InjectBrowser.location(start).searchParams.get('request_id') ?? '';
    const hijack = await stranger.post('/login/identify', { request_id: requestId, email: user.email });
    expect(hijack.statusCode).toBe(400);
    expect(hijack.body).toContain('This sign-in has expired');
    const foreign = await stranger.get(loginUrl);
    expect(foreign.statusCode).toBe(400);
    expect(foreign.body).toContain('This sign-in has expired');

    const done = await b.signIn(start, user.email, HOSTED_PASSWORD);
    expect(params(done).get('code')).toBeTruthy();
    const replay = await b.get(loginUrl);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain('This sign-in has expired');

    const late = new InjectBrowser(h);
    const pending = await late.authorize(authorizeQuery(web.clientId));
    h.t.clock.advance(30 * 60_000);
    const expired = await late.get(pending.headers.location as string);
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain('start again');
    expect((await late.get(`${h.authBase}/login`)).statusCode).toBe(400);
    // Maintenance deletes requests a day after they expired.
    expect(await h.deps.flow.deleteExpired()).toBe(0);
    h.t.clock.advance(24 * 60 * 60_000 + 1);
    expect(await h.deps.flow.deleteExpired()).toBeGreaterThan(0);
    expect(await h.t.svc.database.db.selectFrom('authRequests').select('id').execute()).toEqual([]);
  });

  it('HEAD /authorize starts nothing', async () => {
    const head = await h.inject({
      method: 'HEAD',
      url: `${h.authBase}/authorize?${new URLSearchParams(authorizeQuery(web.clientId)).toString()}`,
    });
    expect(head.statusCode).toBe(404);
  });
});
