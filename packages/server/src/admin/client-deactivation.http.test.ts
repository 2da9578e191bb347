import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_REDIRECT_URI, authorizeQuery, pkcePair } from '../test-support/authorize-params.js';
import { describeAboveStorage } from '../test-support/databases.js';
import { createDirectHarness, DIRECT_PASSWORD, type DirectHarness } from '../test-support/direct-test-app.js';
import { InjectBrowser } from '../test-support/inject-browser.js';
import { basicAuth, form } from '../test-support/oauth-http.js';
import { endedSession, probeSession, type HeldTokens } from '../test-support/session-probe.js';

const ADMIN = '/svc/admin/auth/api';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describeAboveStorage('deactivating and reactivating a client', (kind) => {
  let h: DirectHarness;
  beforeAll(async () => {
    h = await createDirectHarness(kind);
  });
  afterAll(() => h.close());

  const setActive = async (clientId: string, active: boolean) => {
    const response = await h.inject({
      method: 'PATCH',
      url: `${ADMIN}/clients/${clientId}`,
      headers: h.t.operator,
      payload: { active },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ clientId, active });
  };
  const formPost = (path: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
    h.inject({
      method: 'POST',
      url: `${h.authBase}${path}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      payload: form(params),
    });
  const expectOAuthError = async (
    response: Awaited<ReturnType<typeof formPost>>,
    status: number,
    error: string,
  ) => {
    expect(response.statusCode, response.body).toBe(status);
    expect(response.json()).toMatchObject({ error });
  };
  const tokensOf = async (email: string, clientId: string): Promise<HeldTokens> => {
    const { tokens } = await h.login(email, clientId);
    if (tokens === null) throw new Error('the login did not complete');
    return tokens;
  };

  it('a public client: its sessions end, and it gets invalid_client at /token, /authorize, the direct helpers and the device flow', async () => {
    const client = await h.given.client({ allowDeviceAuthorization: true });
    const other = await h.given.client();
    const user = await h.given.user();
    const session = await tokensOf(user.email, client.clientId);
    const otherSession = await tokensOf(user.email, other.clientId);
    const device = (await formPost('/device_authorization', { client_id: client.clientId })).json<{
      device_code: string;
    }>();
    // A code issued before the deactivation, through the hosted pages.
    const pkce = pkcePair();
    const browser = new InjectBrowser({ authBase: h.authBase, inject: (options) => h.inject(options) });
    const redirect = await browser.signIn(
      await browser.authorize(authorizeQuery(client.clientId, {}, pkce.challenge)),
      user.email,
      DIRECT_PASSWORD,
    );
    const code = InjectBrowser.location(redirect).searchParams.get('code') ?? '';
    expect(code).not.toBe('');

    await setActive(client.clientId, false);
    expect(await probeSession(h.t.svc, session, client)).toEqual(endedSession('invalid_client'));
    expect(await probeSession(h.t.svc, otherSession, other)).toMatchObject({ userinfo: 200, refresh: 'ok' });

    await expectOAuthError(
      await formPost('/token', {
        grant_type: 'authorization_code',
        code,
        redirect_uri: CLIENT_REDIRECT_URI,
        client_id: client.clientId,
        code_verifier: pkce.verifier,
      }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await formPost('/token', {
        grant_type: DEVICE_GRANT,
        device_code: device.device_code,
        client_id: client.clientId,
      }),
      401,
      'invalid_client',
    );
    await expectOAuthError(
      await formPost('/device_authorization', { client_id: client.clientId }),
      401,
      'invalid_client',
    );

    const directRefresh = await h.post('/token/refresh', { refreshToken: session.refreshToken });
    expect(directRefresh.statusCode).toBe(401);
    expect(directRefresh.json()).toMatchObject({ error: 'invalid_client' });
    const directLogin = await h.post('/password/login', {
      email: user.email,
      password: DIRECT_PASSWORD,
      clientId: client.clientId,
    });
    expect(directLogin.statusCode).toBe(400);
    expect(directLogin.json()).toMatchObject({ error: 'invalid_client' });

    const page = await browser.authorize(authorizeQuery(client.clientId));
    expect(page.statusCode).toBe(400);
    expect(page.headers.location).toBeUndefined();
    expect(page.body).toContain('The client is unknown or disabled.');

    const [event] = await h.events('admin.client.deactivated', client.clientId);
    expect(event).toMatchObject({ actorType: 'operator', data: { sessionsRevoked: 1 } });

    await setActive(client.clientId, true);
    expect((await tokensOf(user.email, client.clientId)).refreshToken).not.toBe('');
    expect(await probeSession(h.t.svc, session, client)).toEqual(endedSession());
    expect(await h.events('admin.client.reactivated', client.clientId)).toHaveLength(1);
  });

  it('a confidential client: its secret no longer authenticates it while it is deactivated', async () => {
    const client = await h.given.client({
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowClientCredentials: true,
    });
    const grant = () =>
      formPost(
        '/token',
        { grant_type: 'client_credentials' },
        { authorization: basicAuth(client.clientId, client.clientSecret ?? '') },
      );
    expect((await grant()).statusCode).toBe(200);
    await setActive(client.clientId, false);
    await expectOAuthError(await grant(), 401, 'invalid_client');
    await setActive(client.clientId, true);
    expect((await grant()).statusCode).toBe(200);
  });
});
