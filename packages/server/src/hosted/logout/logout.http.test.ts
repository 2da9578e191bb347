import type { SvcCreatedClient } from '@svc/contract';
import type { TestUser } from '../../test-support/hosted-test-app.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, CLIENT_REDIRECT_URI } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../test-support/hosted-test-app.js';
import { InjectBrowser, setCookies } from '../../test-support/inject-browser.js';

describeAboveStorage('hosted logout', (kind) => {
  let h: HostedTestApp;
  let user: TestUser;
  let web: SvcCreatedClient;
  let other: SvcCreatedClient;

  beforeAll(async () => {
    h = await createHostedTestApp(kind);
    user = await h.given.user();
    web = await h.given.client({ redirectUris: [CLIENT_REDIRECT_URI, 'https://app.example.com/bye'] });
    other = await h.given.client({ redirectUris: ['https://other.example.com/bye'] });
  });
  afterAll(async () => {
    await h.close();
  });

  async function signedIn(): Promise<InjectBrowser> {
    const b = new InjectBrowser(h);
    await b.signIn(await b.authorize(authorizeQuery(web.clientId)), user.email, HOSTED_PASSWORD);
    expect(b.cookies.has('svc_session')).toBe(true);
    return b;
  }

  const logout = (b: InjectBrowser, query: Record<string, string> = {}) =>
    b.get(`${h.authBase}/logout?${new URLSearchParams(query).toString()}`);

  it('ends the issuer session and clears its cookie: the next prompt=none is login_required', async () => {
    const b = await signedIn();
    const token = b.cookies.get('svc_session');
    expect(await h.t.svc.authEngine.browserSessions.resolve(token)).not.toBeNull();
    const response = await logout(b);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(`${h.authBase}/logged-out`);
    const cleared = setCookies(response).find((c) => c.name === 'svc_session');
    expect(cleared).toMatchObject({ value: '', attributes: expect.objectContaining({ path: h.authBase }) });
    expect(await h.t.svc.authEngine.browserSessions.resolve(token)).toBeNull();
    const none = await b.authorize(authorizeQuery(web.clientId, { prompt: 'none' }));
    expect(InjectBrowser.location(none).searchParams.get('error')).toBe('login_required');
    // The session is ended in storage, not only forgotten by this browser.
    const replayed = await h.inject({
      method: 'GET',
      url: `${h.authBase}/authorize?${new URLSearchParams(authorizeQuery(web.clientId, { prompt: 'none' })).toString()}`,
      headers: { cookie: `svc_session=${token ?? ''}` },
    });
    expect(InjectBrowser.location(replayed).searchParams.get('error')).toBe('login_required');
    expect((await b.get(`${h.authBase}/logged-out`)).statusCode).toBe(200);
  });

  it('HEAD /logout ends nothing (a link checker or prefetch must not sign the user out)', async () => {
    const b = await signedIn();
    const token = b.cookies.get('svc_session');
    const head = await h.inject({
      method: 'HEAD',
      url: `${h.authBase}/logout`,
      headers: { cookie: `svc_session=${token ?? ''}` },
    });
    expect(head.statusCode).toBe(404);
    expect(await h.t.svc.authEngine.browserSessions.resolve(token)).not.toBeNull();
  });

  it('returns to post_logout_redirect_uri only when it is registered for the given client_id, with the state', async () => {
    const b = await signedIn();
    const back = await logout(b, {
      client_id: web.clientId,
      post_logout_redirect_uri: 'https://app.example.com/bye',
      state: 'st 1',
    });
    expect(back.headers.location).toBe('https://app.example.com/bye?state=st%201');
    const noState = await logout(b, {
      client_id: web.clientId,
      post_logout_redirect_uri: CLIENT_REDIRECT_URI,
    });
    expect(noState.headers.location).toBe(CLIENT_REDIRECT_URI);

    const refused: Record<string, string>[] = [
      { post_logout_redirect_uri: 'https://app.example.com/bye' },
      { client_id: web.clientId, post_logout_redirect_uri: 'https://evil.example.com/' },
      { client_id: web.clientId, post_logout_redirect_uri: 'https://app.example.com/bye/' },
      { client_id: web.clientId, post_logout_redirect_uri: '//evil.example.com' },
      { client_id: other.clientId, post_logout_redirect_uri: 'https://app.example.com/bye' },
      { client_id: 'no-such-client', post_logout_redirect_uri: 'https://app.example.com/bye' },
      { client_id: 'bad\u0000id', post_logout_redirect_uri: 'https://app.example.com/bye' },
    ];
    for (const query of refused) {
      const response = await logout(b, query);
      expect(response.statusCode, JSON.stringify(query)).toBe(302);
      expect(response.headers.location, JSON.stringify(query)).toBe(`${h.authBase}/logged-out`);
    }
    const repeated = await b.get(
      `${h.authBase}/logout?client_id=${web.clientId}&post_logout_redirect_uri=https%3A%2F%2Fapp.example.com%2Fbye&post_logout_redirect_uri=x`,
    );
    expect(repeated.headers.location).toBe(`${h.authBase}/logged-out`);
  });
});
