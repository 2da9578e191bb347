import type { SvcCreatedClient } from '@svc/contract';
import { decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HOUR_MS } from '../../kernel/clock.js';
import { authorizeQuery, pkcePair } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
  type TestUser,
} from '../../test-support/hosted-test-app.js';
import { hiddenFields, InjectBrowser, setCookies } from '../../test-support/inject-browser.js';
import { nextRsaTestKeyPair } from '../../test-support/rsa-test-keys.js';

const SIGNED_OUT = 'https://app.example.com/signed-out';
const OTHER_SIGNED_OUT = 'https://other.example.com/signed-out';

describeAboveStorage('RP-initiated logout at /session/end', (kind) => {
  let h: HostedTestApp;
  let user: TestUser;
  let web: SvcCreatedClient;
  let other: SvcCreatedClient;

  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    user = await h.given.user();
    web = await h.given.client({ postLogoutRedirectUris: [SIGNED_OUT] });
    other = await h.given.client({ postLogoutRedirectUris: [OTHER_SIGNED_OUT] });
  });
  afterAll(async () => {
    await h.close();
  });

  /** A browser signed in through the pages, and the tokens the client redeemed for it. */
  async function signedIn(who: TestUser = user, client: SvcCreatedClient = web) {
    const b = new InjectBrowser(h);
    const { verifier, challenge } = pkcePair();
    const done = await b.signIn(
      await b.authorize(authorizeQuery(client.clientId, { scope: 'openid' }, challenge)),
      who.email,
      HOSTED_PASSWORD,
    );
    const tokens = await h.redeem(InjectBrowser.location(done), client.clientId, verifier);
    return { b, idToken: tokens.idToken ?? '', accessToken: tokens.accessToken };
  }

  const endSession = (b: InjectBrowser, query: Record<string, string>) =>
    b.get(`${h.authBase}/session/end?${new URLSearchParams(query).toString()}`);

  /** Whether the browser's issuer session still signs in silently (prompt=none gets a code). */
  async function silentSignIn(b: InjectBrowser): Promise<boolean> {
    const answer = await b.authorize(authorizeQuery(web.clientId, { prompt: 'none' }));
    const location = InjectBrowser.location(answer);
    if (location.searchParams.get('error') === 'login_required') return false;
    expect(location.searchParams.has('code')).toBe(true);
    return true;
  }

  /** The confirmation page: nothing ended, a form that posts back with an antiforgery token. */
  function expectConfirmationPage(response: Awaited<ReturnType<typeof endSession>>) {
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Sign out of Svc?');
    expect(response.body).toContain(`<form method="post" action="${h.authBase}/session/end/confirm">`);
    expect(hiddenFields(response.body)._csrf).toMatch(/^\d+\./);
    expect(setCookies(response).find((c) => c.name === 'svc_session')).toBeUndefined();
  }

  it('is advertised in both discovery documents', async () => {
    for (const path of ['oauth-authorization-server', 'openid-configuration']) {
      const response = await h.inject({ method: 'GET', url: `${h.authBase}/.well-known/${path}` });
      expect(response.json()).toMatchObject({
        end_session_endpoint: `${h.t.svc.config.issuer}/session/end`,
      });
    }
  });

  it('with a valid id_token_hint ends the issuer session and returns to the registered URI with state', async () => {
    const { b, idToken } = await signedIn();
    const token = b.cookies.get('svc_session');
    const response = await endSession(b, {
      id_token_hint: idToken,
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'st 1',
    });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${SIGNED_OUT}?state=st%201`);
    expect(setCookies(response).find((c) => c.name === 'svc_session')?.value).toBe('');
    expect(await h.t.svc.authEngine.browserSessions.resolve(token)).toBeNull();
    expect(await silentSignIn(b)).toBe(false);
    const [event] = (await h.auditEvents('oauth.hosted_logout.completed')).filter((e) =>
      e.dataJson.includes('"endpoint":"end_session"'),
    );
    expect(event).toMatchObject({ userId: user.id, clientId: web.clientId });
  });

  it('accepts an expired hint, and a client_id that matches it', async () => {
    const { b, idToken } = await signedIn();
    h.t.clock.advance(2 * HOUR_MS);
    const response = await endSession(b, {
      id_token_hint: idToken,
      client_id: web.clientId,
      post_logout_redirect_uri: SIGNED_OUT,
    });
    expect(response.headers.location).toBe(SIGNED_OUT);
    expect(await silentSignIn(b)).toBe(false);
  });

  it('never redirects to a URI that is not a registered post-logout URI of the hint’s client', async () => {
    const refused = [
      'https://app.example.com/callback', // a redirect URI, not a post-logout one
      OTHER_SIGNED_OUT, // registered for another client
      `${SIGNED_OUT}/`,
      'https://evil.example.com/',
    ];
    for (const uri of refused) {
      const { b, idToken } = await signedIn();
      const response = await endSession(b, { id_token_hint: idToken, post_logout_redirect_uri: uri });
      expect(response.statusCode, uri).toBe(302);
      expect(response.headers.location, uri).toBe(`${h.authBase}/logged-out`);
      // The hint was valid: the session ended all the same, only the redirect was dropped.
      expect(await silentSignIn(b), uri).toBe(false);
    }
  });

  it('refuses a client_id that is not the hint’s audience, and ends nothing', async () => {
    const { b, idToken } = await signedIn();
    const response = await endSession(b, {
      id_token_hint: idToken,
      client_id: other.clientId,
      post_logout_redirect_uri: OTHER_SIGNED_OUT,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('This sign-out request is not valid');
    expect(response.headers.location).toBeUndefined();
    expect(await silentSignIn(b)).toBe(true);
  });

  it('asks first when the hint is not one of ours or not of this session, and ends nothing', async () => {
    const { b, idToken, accessToken } = await signedIn();
    const { idToken: strangers } = await signedIn(await h.given.user());
    const { privateKey } = nextRsaTestKeyPair();
    const forged = await new SignJWT({ sub: user.id, aud: web.clientId, iss: h.t.svc.config.issuer })
      .setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(idToken).kid ?? '' })
      .setIssuedAt(Math.floor(h.t.clock.now() / 1000))
      .setExpirationTime('1h')
      .sign(privateKey);
    // An ID token of the same user from before this browser signed in (for example copied from a log).
    h.t.clock.advance(5_000);
    const { b: later } = await signedIn();
    const cases: [InjectBrowser, string][] = [
      [b, 'not-a-jwt'],
      [b, forged],
      [b, accessToken],
      [b, strangers],
      [later, idToken],
    ];
    for (const [browser, hint] of cases) {
      const response = await endSession(browser, {
        id_token_hint: hint,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 's',
      });
      expectConfirmationPage(response);
      expect(await silentSignIn(browser)).toBe(true);
    }
  });

  it('without a hint the GET ends nothing and asks; the form carries the request on', async () => {
    const { b } = await signedIn();
    const response = await endSession(b, {
      client_id: web.clientId,
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'abc',
    });
    expectConfirmationPage(response);
    expect(response.body).toContain(user.email);
    expect(hiddenFields(response.body)).toMatchObject({
      client_id: web.clientId,
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'abc',
    });
    expect(await silentSignIn(b)).toBe(true);
  });

  it('the confirmation needs the antiforgery token and the own origin; with them it signs out and returns', async () => {
    const { b } = await signedIn();
    await endSession(b, { client_id: web.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'abc' });
    const withoutToken = await b.post('/session/end/confirm', {}, { withoutToken: true });
    expect(withoutToken.statusCode).toBe(400);
    expect(withoutToken.body).toContain('This form has expired');
    const crossSite = await b.post('/session/end/confirm', {}, { origin: 'https://evil.example.com' });
    expect(crossSite.statusCode).toBe(400);
    expect(await silentSignIn(b)).toBe(true);

    await endSession(b, { client_id: web.clientId, post_logout_redirect_uri: SIGNED_OUT, state: 'abc' });
    const confirmed = await b.post('/session/end/confirm');
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toBe(`${SIGNED_OUT}?state=abc`);
    expect(await silentSignIn(b)).toBe(false);
  });

  it('after confirming, returns only to a URI registered for the posted client_id', async () => {
    const cases: Record<string, string>[] = [
      { post_logout_redirect_uri: SIGNED_OUT },
      { client_id: other.clientId, post_logout_redirect_uri: SIGNED_OUT },
      { client_id: web.clientId, post_logout_redirect_uri: 'https://evil.example.com/' },
    ];
    for (const query of cases) {
      const { b } = await signedIn();
      await endSession(b, query);
      const confirmed = await b.post('/session/end/confirm');
      expect(confirmed.statusCode, JSON.stringify(query)).toBe(303);
      expect(confirmed.headers.location, JSON.stringify(query)).toBe(`${h.authBase}/logged-out`);
      expect(await silentSignIn(b)).toBe(false);
    }
  });

  it('without an issuer session there is nothing to ask: it returns at once, to registered URIs only', async () => {
    const b = new InjectBrowser(h);
    const registered = await endSession(b, {
      client_id: web.clientId,
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'x',
    });
    expect(registered.headers.location).toBe(`${SIGNED_OUT}?state=x`);
    const unregistered = await endSession(b, {
      client_id: web.clientId,
      post_logout_redirect_uri: 'https://evil.example.com/',
    });
    expect(unregistered.headers.location).toBe(`${h.authBase}/logged-out`);
  });

  it('takes the relying party’s form POST: in place with the session cookie, else as a GET that brings it', async () => {
    const rpPost = (fields: Record<string, string>, cookie?: string) =>
      h.inject({
        method: 'POST',
        url: `${h.authBase}/session/end`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          origin: 'https://app.example.com',
          ...(cookie === undefined ? {} : { cookie: `svc_session=${cookie}` }),
        },
        payload: new URLSearchParams(fields).toString(),
      });
    const first = await signedIn();
    const fields = { id_token_hint: first.idToken, post_logout_redirect_uri: SIGNED_OUT, state: 'p' };
    const sameSite = await rpPost(fields, first.b.cookies.get('svc_session'));
    expect(sameSite.statusCode).toBe(303);
    expect(sameSite.headers.location).toBe(`${SIGNED_OUT}?state=p`);
    expect(await silentSignIn(first.b)).toBe(false);

    // A cross-site POST carries no SameSite=Lax cookie: it becomes the same request as a GET.
    const second = await signedIn();
    const crossSite = await rpPost({ ...fields, id_token_hint: second.idToken });
    expect(crossSite.statusCode).toBe(303);
    const get = InjectBrowser.location(crossSite);
    expect(get.pathname).toBe(`${h.authBase}/session/end`);
    expect(Object.fromEntries(get.searchParams)).toEqual({ ...fields, id_token_hint: second.idToken });
    expect(await silentSignIn(second.b)).toBe(true);
    const followed = await second.b.get(get.toString());
    expect(followed.headers.location).toBe(`${SIGNED_OUT}?state=p`);
    expect(await silentSignIn(second.b)).toBe(false);

    // Without a hint the POST asks too, and ends nothing.
    const third = await signedIn();
    expectConfirmationPage(await rpPost({ client_id: web.clientId }, third.b.cookies.get('svc_session')));
    expect(await silentSignIn(third.b)).toBe(true);
  });

  it('HEAD ends nothing, and GET /logout keeps returning to redirect URIs only', async () => {
    const { b, idToken } = await signedIn();
    const head = await h.inject({
      method: 'HEAD',
      url: `${h.authBase}/session/end?id_token_hint=${idToken}`,
      headers: { cookie: `svc_session=${b.cookies.get('svc_session') ?? ''}` },
    });
    expect(head.statusCode).toBe(404);
    expect(await silentSignIn(b)).toBe(true);
    const logout = await b.get(
      `${h.authBase}/logout?client_id=${web.clientId}&post_logout_redirect_uri=${encodeURIComponent(SIGNED_OUT)}`,
    );
    expect(logout.headers.location).toBe(`${h.authBase}/logged-out`);
    expect(await silentSignIn(b)).toBe(false);
  });
});
