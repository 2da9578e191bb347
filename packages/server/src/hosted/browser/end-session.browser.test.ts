import type { SvcCreatedClient } from '@svc/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { BrowserTestClient, heading, signInWithPassword } from '../../test-support/browser-flow.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';

/**
 * RP-initiated logout in Debian Chromium with JavaScript off: the pages must work as plain HTML. The
 * client (oauth4webapi) finds the endpoint in discovery, as a real relying party does.
 */
describe('RP-initiated logout in a browser', () => {
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let rp: BrowserTestClient;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    served = await serveHostedApp();
    browser = await launchBrowser({ javaScriptEnabled: false });
    web = await served.hosted.given.client({
      redirectUris: [served.callbackUri],
      postLogoutRedirectUris: [served.callbackUri],
    });
    rp = await BrowserTestClient.discover(served);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
  });

  /** Signs a new user in through the pages; returns the page (at the callback) and the ID token. */
  async function signIn(): Promise<{ page: Page; idToken: string; email: string }> {
    const user = await served.hosted.given.user();
    const flow = await rp.authorizationUrl(web);
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await signInWithPassword(page, user.email);
    const { result } = await rp.redeem(page, web, flow);
    return { page, idToken: result.id_token ?? '', email: user.email };
  }

  /** A silent authorization: the issuer session is over when it answers login_required. */
  async function expectSignedOut(page: Page): Promise<void> {
    const silent = await rp.authorizationUrl(web, { prompt: 'none' });
    await page.goto(silent.url);
    await page.waitForURL(rp.atCallback);
    expect(new URL(page.url()).searchParams.get('error')).toBe('login_required');
  }

  it('without a hint asks first; confirming signs out and lands on the logged-out page', async () => {
    const { page, email } = await signIn();
    const endpoint = rp.as.end_session_endpoint ?? '';
    expect(endpoint).toBe(`${served.issuer}/session/end`);

    await page.goto(endpoint);
    await heading(page, 'Sign out of Svc?');
    expect(await page.title()).toBe('Sign out · Svc');
    expect(await page.locator('p.lead').textContent()).toContain(email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'You are signed out');
    expect(new URL(page.url()).pathname).toBe('/svc/auth/logged-out');
    await expectSignedOut(page);
    await page.close();
  });

  it('with the ID token as hint signs out at once and returns to the client with its state', async () => {
    const { page, idToken } = await signIn();
    const logout = new URL(rp.as.end_session_endpoint ?? '');
    logout.search = new URLSearchParams({
      id_token_hint: idToken,
      post_logout_redirect_uri: served.callbackUri,
      state: 'bye',
    }).toString();
    await page.goto(logout.toString());
    await page.waitForURL(rp.atCallback);
    expect(new URL(page.url()).searchParams.get('state')).toBe('bye');
    await expectSignedOut(page);
    await page.close();
  });
});
