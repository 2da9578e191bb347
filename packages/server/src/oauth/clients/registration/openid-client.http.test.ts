import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createHostedTestApp,
  HOSTED_PASSWORD,
  type HostedTestApp,
} from '../../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../../test-support/inject-browser.js';
import { freePort } from '../../../test-support/postgres-launcher.js';

const REDIRECT_URI = 'http://127.0.0.1:7777/callback';

/**
 * A real client library (openid-client) registers itself at a listening Svc from discovery's
 * registration_endpoint, then signs a user in with PKCE (the pages walked in process), exchanges the
 * code with strict ID token checks, refreshes and reads userinfo: what an MCP client or a desktop app
 * does without an operator.
 */
describe('openid-client registers itself and signs in', () => {
  let h: HostedTestApp;
  let issuer: URL;

  beforeAll(async () => {
    const port = await freePort();
    h = await createHostedTestApp('sqlite', {
      publicOrigin: `http://127.0.0.1:${port}`,
      dynamicClientRegistration: { enabled: true, allowedScopes: ['openid', 'profile', 'email'] },
    });
    await h.app.listen({ port, host: '127.0.0.1' });
    issuer = new URL(h.t.svc.config.issuer);
  });
  afterAll(() => h.close());

  it('registers from discovery, then completes the code flow, a refresh and userinfo', async () => {
    const config = await client.dynamicClientRegistration(
      issuer,
      {
        client_name: 'Desktop notes',
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        scope: 'openid email',
        // openid-client's clock is Date.now(); Svc's is the test's fake clock.
        [client.clockSkew]: Math.round((h.t.clock.now() - Date.now()) / 1000),
      },
      client.None(),
      { algorithm: 'oidc', execute: [client.allowInsecureRequests] },
    );
    const metadata = config.clientMetadata();
    expect(metadata.client_id).toMatch(/^dcr_/);
    expect(metadata).not.toHaveProperty('client_secret');
    expect(config.serverMetadata().registration_endpoint).toBe(`${issuer.href}/register`);

    const user = await h.given.user();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    const browser = new InjectBrowser(h, issuer.origin);
    await browser.signIn(await browser.get(authorizationUrl.href), user.email, HOSTED_PASSWORD);
    const callback = InjectBrowser.location(await browser.post('/consent/approve'));

    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ sub: user.id, aud: metadata.client_id });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
    const info = await client.fetchUserInfo(config, refreshed.access_token, user.id);
    expect(info).toMatchObject({ sub: user.id, email: user.email });
  });
});
