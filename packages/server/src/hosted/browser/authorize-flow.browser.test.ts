import type { SvcCreatedClient } from '@svc/contract';
import type { TestUser } from '../../test-support/hosted-test-app.js';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oauth from 'oauth4webapi';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { HOSTED_PASSWORD } from '../../test-support/hosted-test-app.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';

/**
 * The hosted flow end to end in Debian Chromium, with oauth4webapi as the OAuth client: the browser
 * talks to the pages on a real port, the client validates the authorization response, redeems the code
 * at /token and validates the ID token (claims by oauth4webapi, RS256 signature against the JWKS).
 */
describe('hosted authorization flow in a browser', () => {
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let as: oauth.AuthorizationServer;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  let thirdParty: SvcCreatedClient;
  let firstParty: SvcCreatedClient;

  beforeAll(async () => {
    served = await serveHostedApp();
    browser = await launchBrowser();
    const { given } = served.hosted;
    const redirectUris = [served.callbackUri];
    thirdParty = await given.client({ isFirstParty: false, redirectUris });
    firstParty = await given.client({ redirectUris });
    const options = { [oauth.customFetch]: served.fetch, [oauth.allowInsecureRequests]: true };
    const issuer = new URL(served.issuer);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
    const keys = await served.fetch(as.jwks_uri ?? '', {
      method: 'GET',
      headers: {},
      body: undefined,
      redirect: 'manual',
    });
    jwks = createLocalJWKSet((await keys.json()) as JSONWebKeySet);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
  });

  const clientOf = (created: SvcCreatedClient): oauth.Client => ({
    client_id: created.clientId,
    token_endpoint_auth_method: 'none',
  });

  /** An authorization URL as the client builds it, with fresh PKCE, state and nonce. */
  async function authorizationUrl(client: SvcCreatedClient, extra: Record<string, string> = {}) {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint ?? '');
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: served.callbackUri,
      scope: 'openid profile email',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...extra,
    }).toString();
    return { url: url.toString(), verifier, state, nonce };
  }

  const atCallback = (url: URL) => url.toString().startsWith(served.callbackUri);

  /** Waits for the page whose heading this is (a click's navigation may still be under way). */
  async function heading(page: Page, name: string): Promise<void> {
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  }

  async function signIn(page: Page, user: TestUser): Promise<void> {
    await heading(page, 'Sign in');
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, 'Enter your password');
    await page.getByLabel('Password', { exact: true }).fill(HOSTED_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** The code of the page's callback URL redeemed at /token by oauth4webapi; the validated ID token claims. */
  async function redeem(
    page: Page,
    client: SvcCreatedClient,
    flow: { verifier: string; state: string; nonce: string },
  ) {
    const params = oauth.validateAuthResponse(as, clientOf(client), new URL(page.url()), flow.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      clientOf(client),
      oauth.None(),
      params,
      served.callbackUri,
      flow.verifier,
      { [oauth.customFetch]: served.fetch, [oauth.allowInsecureRequests]: true },
    );
    const result = await oauth.processAuthorizationCodeResponse(as, clientOf(client), response, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    });
    const { payload, protectedHeader } = await jwtVerify(result.id_token ?? '', jwks, {
      issuer: served.issuer,
      audience: client.clientId,
      algorithms: ['RS256'],
    });
    expect(protectedHeader.alg).toBe('RS256');
    return { claims: oauth.getValidatedIdTokenClaims(result), payload, result };
  }

  it('signs in with a password, chooses an organization, consents, and the client validates everything', async () => {
    const { given } = served.hosted;
    const user = await given.user();
    await given.organization('Northwind', user.id);
    const chosen = await given.organization('Contoso', user.id);
    const flow = await authorizationUrl(thirdParty);
    const page = await browser.context.newPage();

    await page.goto(flow.url);
    expect(await page.title()).toBe('Sign in · Svc');
    await signIn(page, user);
    await heading(page, 'Choose an organization');
    await page.getByRole('button', { name: /Contoso/ }).click();
    await heading(page, `Allow ${thirdParty.name} to access your account?`);
    expect(await page.locator('ul.scopes li').allTextContents()).toEqual([
      'Confirm who you are when you sign in',
      'See your name and username',
      'See your email address',
    ]);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL(atCallback);
    expect(new URL(page.url()).searchParams.get('scope')).toBe('openid profile email');

    const { claims, payload, result } = await redeem(page, thirdParty, flow);
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
    const options = { [oauth.customFetch]: served.fetch, [oauth.allowInsecureRequests]: true };
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      clientOf(thirdParty),
      await oauth.refreshTokenGrantRequest(
        as,
        clientOf(thirdParty),
        oauth.None(),
        result.refresh_token ?? '',
        options,
      ),
    );
    expect(refreshed.scope).toBe('openid profile email');
    expect(refreshed.refresh_token).not.toBe(result.refresh_token);
    expect(oauth.getValidatedIdTokenClaims(refreshed)).not.toHaveProperty('nonce');
    const info = await oauth.processUserInfoResponse(
      as,
      clientOf(thirdParty),
      user.id,
      await oauth.userInfoRequest(as, clientOf(thirdParty), refreshed.access_token, options),
    );
    expect(info).toMatchObject({ sub: user.id, email: user.email, org_id: chosen.id, amr: ['pwd'] });

    const logout = new URL(`${served.issuer}/logout`);
    logout.search = new URLSearchParams({
      client_id: thirdParty.clientId,
      post_logout_redirect_uri: served.callbackUri,
    }).toString();
    await page.goto(logout.toString());
    await page.waitForURL(atCallback);
    const silent = await authorizationUrl(thirdParty, { prompt: 'none' });
    await page.goto(silent.url);
    await page.waitForURL(atCallback);
    expect(new URL(page.url()).searchParams.get('error')).toBe('login_required');
    await page.close();
  });

  it('denying consent returns access_denied to the client', async () => {
    const user = await served.hosted.given.user();
    const flow = await authorizationUrl(thirdParty);
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await signIn(page, user);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(atCallback);
    const error = (() => {
      try {
        oauth.validateAuthResponse(as, clientOf(thirdParty), new URL(page.url()), flow.state);
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
    const none = await authorizationUrl(firstParty, { prompt: 'none' });
    await page.goto(none.url);
    await page.waitForURL(atCallback);
    expect(new URL(page.url()).searchParams.get('error')).toBe('login_required');

    const first = await authorizationUrl(firstParty);
    await page.goto(first.url);
    await signIn(page, user);
    await page.waitForURL(atCallback);
    expect((await redeem(page, firstParty, first)).claims?.sub).toBe(user.id);

    // The second authorization shows no page of Svc at all: the browser goes straight back.
    const pages: string[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(served.origin) && response.status() === 200) pages.push(response.url());
    });
    const second = await authorizationUrl(firstParty);
    await page.goto(second.url);
    await page.waitForURL(atCallback);
    expect(pages).toEqual([]);
    expect((await redeem(page, firstParty, second)).claims?.sub).toBe(user.id);

    const fresh = await authorizationUrl(firstParty, { max_age: '0' });
    await page.goto(fresh.url);
    await heading(page, 'Sign in');
    await signIn(page, user);
    await page.waitForURL(atCallback);
    expect((await redeem(page, firstParty, fresh)).claims?.sub).toBe(user.id);
    await page.close();
  });

  it('works with JavaScript disabled', async () => {
    const user = await served.hosted.given.user();
    const noScript = await launchBrowser({ javaScriptEnabled: false });
    try {
      const page = await noScript.context.newPage();
      const flow = await authorizationUrl(thirdParty);
      await page.goto(flow.url);
      await signIn(page, user);
      await heading(page, `Allow ${thirdParty.name} to access your account?`);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(atCallback);
      expect((await redeem(page, thirdParty, flow)).claims?.sub).toBe(user.id);
    } finally {
      await noScript.close();
    }
  });
});
