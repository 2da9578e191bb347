import type { SvcCreatedClient } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { BrowserTestClient, heading } from '../../test-support/browser-flow.js';
import { PROVIDERS_ON_LOOPBACK } from '../../test-support/federation/loopback-server.js';
import { startOidcPeer, type OidcPeer } from '../../test-support/federation/oidc-peer.js';
import { oidcConnectionBody, TEST_OIDC_CLIENT_SECRET } from '../../test-support/oidc-connections.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';

/** A small square logo, as an operator would upload one. */
const LOGO = `data:image/svg+xml;base64,${Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="#0a7"/></svg>',
).toString('base64')}`;

/**
 * Sign-in through a provider end to end in Debian Chromium: Svc's pages on a real port, node-oidc-provider
 * as the provider on another, and oauth4webapi as the client that validates the authorization response,
 * redeems the code and checks the ID token.
 */
describe('hosted sign-in through a provider in a browser', () => {
  let served: ServedHostedApp;
  let peer: OidcPeer;
  let browser: TestBrowser;
  let rp: BrowserTestClient;
  let client: SvcCreatedClient;

  beforeAll(async () => {
    served = await serveHostedApp(PROVIDERS_ON_LOOPBACK);
    const callback = `${served.issuer}/oidc/callback`;
    peer = await startOidcPeer({
      clients: [{ clientId: 'svc-browser', clientSecret: TEST_OIDC_CLIENT_SECRET, redirectUris: [callback] }],
      accounts: [{ id: 'alice', email: 'alice.browser@example.com', emailVerified: true, name: 'Alice' }],
      shape: 'google',
    });
    await served.hosted.t.svc.admin.createOidcConnectionAsync(
      oidcConnectionBody('Custom', {
        displayName: 'Corporate IdP',
        clientId: 'svc-browser',
        discoveryUrl: peer.discoveryUrl,
        allowedCallbackUris: [callback],
        logoDataUrl: LOGO,
      }),
    );
    browser = await launchBrowser({ javaScriptEnabled: false });
    client = await served.hosted.given.client({ redirectUris: [served.callbackUri] });
    rp = await BrowserTestClient.discover(served);
  });
  afterAll(async () => {
    await browser?.close();
    await peer?.close();
    await served?.close();
  });

  it('signs a new account in with the provider button, without JavaScript; the client validates the tokens', async () => {
    const flow = await rp.authorizationUrl(client, { scope: 'openid email' });
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await heading(page, 'Sign in');
    const button = page.getByRole('link', { name: 'Continue with Corporate IdP' });
    // The logo is drawn (a broken image has no natural width).
    expect(await button.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(20);
    await button.click();
    // The provider's own sign-in form.
    await page.locator('input[name="account"]').fill('alice');
    await page.locator('input[name="account"]').press('Enter');
    const { claims } = await rp.redeem(page, client, flow);
    expect(claims).toMatchObject({
      email: 'alice.browser@example.com',
      email_verified: true,
      amr: ['fed'],
      nonce: flow.nonce,
    });
    const user = await served.hosted.t.svc.admin.getUserAsync(String(claims?.sub));
    expect(user.email).toBe('alice.browser@example.com');
    await page.close();
  });
});
