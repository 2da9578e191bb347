import { generateKeyPairSync } from 'node:crypto';
import type { SvcCreatedClient } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorizeQuery, CLIENT_REDIRECT_URI } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import { startApplePeer, type ApplePeer } from '../../test-support/federation/apple-peer.js';
import { PROVIDERS_ON_LOOPBACK } from '../../test-support/federation/loopback-server.js';
import { createHostedTestApp, type HostedTestApp } from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';
import { oidcConnectionBody, TEST_OIDC_CALLBACK } from '../../test-support/oidc-connections.js';

const SERVICES_ID = 'com.example.svc.hosted';
const TEAM_ID = 'TEAM123456';
const KEY_ID = 'KEY7654321';

/**
 * Sign in with Apple on the hosted pages: Apple answers with a cross-site form post that carries no
 * SameSite=Lax cookie; Svc turns it into a GET of its own callback, which does, and reads the user's
 * name from the first authorization's `user` field.
 */
describeAboveStorage('signing in with Apple on the hosted pages', (kind) => {
  let h: HostedTestApp;
  let apple: ApplePeer;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    h = await createHostedTestApp(kind, PROVIDERS_ON_LOOPBACK);
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    apple = await startApplePeer({
      clock: h.t.clock,
      clients: [
        {
          clientId: SERVICES_ID,
          teamId: TEAM_ID,
          keyId: KEY_ID,
          publicKey,
          redirectUris: [TEST_OIDC_CALLBACK],
        },
      ],
      accounts: [
        {
          id: '001234.hosted.0001',
          email: 'jane.hosted@example.com',
          firstName: 'Jane',
          lastName: 'Appleseed',
        },
      ],
    });
    await h.t.svc.admin.createOidcConnectionAsync(
      oidcConnectionBody('Apple', {
        clientId: SERVICES_ID,
        appleTeamId: TEAM_ID,
        appleKeyId: KEY_ID,
        applePrivateKeyPem: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
        discoveryUrl: apple.discoveryUrl,
      }),
    );
    web = await h.given.client();
  });
  afterAll(async () => {
    await apple.close();
    await h.close();
  });

  it("completes from Apple's form post, names the new account from it, and reaches the client", async () => {
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    const started = await b.click('Continue with Apple');
    const post = await apple.signIn(InjectBrowser.location(started), '001234.hosted.0001');
    expect(post.action).toBe(TEST_OIDC_CALLBACK);
    // The browser posts cross-site: no cookies, no antiforgery token.
    const posted = await h.inject({
      method: 'POST',
      url: new URL(post.action).pathname,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://appleid.apple.com' },
      payload: post.fields.toString(),
    });
    expect(posted.statusCode).toBe(303);
    const done = await b.follow(posted);
    const redirect = InjectBrowser.location(done);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(CLIENT_REDIRECT_URI);
    expect(redirect.searchParams.get('code')).toMatch(/.+/);
    const [completed] = await h.auditEvents('oidc.authorization.completed');
    const user = await h.t.svc.admin.getUserAsync(completed?.userId ?? '');
    expect(user).toMatchObject({ email: 'jane.hosted@example.com', displayName: 'Jane Appleseed' });
  });
});
