import type { SvcCreatedClient } from '@svc/contract';
import * as oauth from 'oauth4webapi';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { BrowserTestClient, heading, signInWithPassword } from '../../test-support/browser-flow.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';

/**
 * The hosted flow end to end in Debian Chromium, with oauth4webapi as the OAuth client: the browser
 * talks to the pages on a real port, the client validates the authorization response, redeems the code
 * at /token and validates the ID token (claims by oauth4webapi, RS256 signature against the JWKS).
 */
describe('hosted authorization flow in a browser', () => {
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let rp: BrowserTestClient;
  let thirdParty: SvcCreatedClient;
  let firstParty: SvcCreatedClient;

  beforeAll(async () => {
    served = await serveHostedApp();
    browser = await launchBrowser();
    const { given } = served.hosted;
    const redirectUris = [served.callbackUri];
    thirdParty = await given.client({ isFirstParty: false, redirectUris });
    firstParty = await given.client({ redirectUris });
    rp = await BrowserTestClient.discover(served);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
  });

  it('signs in with a password, chooses an organization, consents, and the client validates everything', async () => {
    const { given } = served.hosted;
    const user = await given.user();
    await given.organization('Northwind', user.id);
    const chosen = await given.organization('Contoso', user.id);
    const flow = await rp.authorizationUrl(thirdParty);
    const page = await browser.context.newPage();

    await page.goto(flow.url);
    expect(await page.title()).toBe('Sign in · Svc');
    await signInWithPassword(page, user.email);
    await heading(page, 'Choose an organization');
    await page.getByRole('button', { name: /Contoso/ }).click();
    await heading(page, `Allow ${thirdParty.name} to access your account?`);
    expect(await page.locator('ul.scopes li').allTextContents()).toEqual([
      'Confirm who you are when you sign in',
      'See your name and username',
      'See your email address',
    ]);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(rp.atCallback);
    expect(new URL(page.url()).searchParams.get('scope')).toBe('openid profile email');

    const { claims, payload, result } = await rp.redeem(page, thirdParty, flow);
    expect(claims).toMatchObject({
      iss: served.issuer,
      sub: user.id,
      aud: thirdParty.clientId,
      nonce: flow.nonce,
      org_id: chosen.id,
      email: user.email,
      amr: ['pwd'],
    });
    expect(typeof payload.auth_time).toBe('number');

    // The client refreshes, calls userinfo with the new access token, and the user logs out.
    const client = rp.client(thirdParty);
    const refreshed = await oauth.processRefreshTokenResponse(
      rp.as,
      client,
      await oauth.refreshTokenGrantRequest(
        rp.as,
        client,
        oauth.None(),
        result.refresh_token ?? '',
        rp.options,
      ),
    );
    expect(refreshed.scope).toBe('openid profile email');
    expect(refreshed.refresh_token).not.toBe(result.refresh_token);
    expect(oauth.getValidatedIdTokenClaims(refreshed)).not.toHaveProperty('nonce');
    const info = await oauth.processUserInfoResponse(
      rp.as,
      client,
      user.id,
      await oauth.userInfoRequest(rp.as, client, refreshed.access_token, rp.options),
    );
    expect(info).toMatchObject({ sub: user.id, email: user.email, org_id: chosen.id, amr: ['pwd'] });

    const logout = new URL(`${served.issuer}/logout`);
    logout.search = new URLSearchParams({
      client_id: thirdParty.clientId,
      post_logout_redirect_uri: served.callbackUri,
    }).toString();
    await page.goto(logout.toString());
    await page.waitForURL(rp.atCallback);
    const silent = await rp.authorizationUrl(thirdParty, { prompt: 'none' });
    await page.goto(silent.url);
    await page.waitForURL(rp.atCallback);
    expect(new URL(page.url()).searchParams.get('error')).toBe('login_required');
    await page.close();
  });

  it('denying consent returns access_denied to the client', async () => {
    const user = await served.hosted.given.user();
    const flow = await rp.authorizationUrl(thirdParty);
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await signInWithPassword(page, user.email);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(rp.atCallback);
    const error = (() => {
      try {
        oauth.validateAuthResponse(rp.as, rp.client(thirdParty), new URL(page.url()), flow.state);
        return undefined;
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(oauth.AuthorizationResponseError);
    expect(error).toMatchObject({ error: 'access_denied' });
    await page.close();
  });

  it('prompt=none without a session is login_required; then a first-party client signs in silently; max_age=0 forces the form', async () => {
    const user = await served.hosted.given.user();
    const page = await browser.context.newPage();
    const none = await rp.authorizationUrl(firstParty, { prompt: 'none' });
    await page.goto(none.url);
    await page.waitForURL(rp.atCallback);
    expect(new URL(page.url()).searchParams.get('error')).toBe('login_required');

    const first = await rp.authorizationUrl(firstParty);
    await page.goto(first.url);
    await signInWithPassword(page, user.email);
    expect((await rp.redeem(page, firstParty, first)).claims?.sub).toBe(user.id);

    // The second authorization shows no page of Svc at all: the browser goes straight back.
    const pages: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(served.origin) && response.status() === 200) pages.push(response.url());
    });
    const second = await rp.authorizationUrl(firstParty);
    await page.goto(second.url);
    await page.waitForURL(rp.atCallback);
    expect(pages).toEqual([]);
    expect((await rp.redeem(page, firstParty, second)).claims?.sub).toBe(user.id);

    const fresh = await rp.authorizationUrl(firstParty, { max_age: '0' });
    await page.goto(fresh.url);
    await heading(page, 'Sign in');
    await signInWithPassword(page, user.email);
    expect((await rp.redeem(page, firstParty, fresh)).claims?.sub).toBe(user.id);
    await page.close();
  });

  it('works with JavaScript disabled', async () => {
    const user = await served.hosted.given.user();
    const noScript = await launchBrowser({ javaScriptEnabled: false });
    try {
      const page = await noScript.context.newPage();
      const flow = await rp.authorizationUrl(thirdParty);
      await page.goto(flow.url);
      await signInWithPassword(page, user.email);
      await heading(page, `Allow ${thirdParty.name} to access your account?`);
      await page.getByRole('button', { name: 'Approve' }).click();
      expect((await rp.redeem(page, thirdParty, flow)).claims?.sub).toBe(user.id);
    } finally {
      await noScript.close();
    }
  });
});
