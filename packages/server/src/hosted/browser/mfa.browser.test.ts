import type { SvcCreatedClient } from '@svc/contract';
import * as oauth from 'oauth4webapi';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticatorCode, TOTP_STEP_MS } from '../../test-support/authenticator-app.js';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { HOSTED_PASSWORD, type TestUser } from '../../test-support/hosted-test-app.js';
import { organizationMfaPolicy } from '../../test-support/mfa.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';

/**
 * The hosted second factor end to end in Debian Chromium, with oauth4webapi as the client: a user whose
 * organization requires MFA sets up an authenticator (reading the secret off the page, as someone
 * typing it into an app would), saves the recovery codes, continues to the client; later signs in with
 * a code of the app.
 */
describe('hosted MFA in a browser', () => {
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let as: oauth.AuthorizationServer;
  let web: SvcCreatedClient;

  beforeAll(async () => {
    served = await serveHostedApp();
    browser = await launchBrowser();
    web = await served.hosted.given.client({ redirectUris: [served.callbackUri] });
    const issuer = new URL(served.issuer);
    const options = { [oauth.customFetch]: served.fetch, [oauth.allowInsecureRequests]: true };
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const clock = () => served.hosted.t.clock;
  /** The client, its clock set to the service's (which the test moves to the next TOTP step). */
  const client = (): oauth.Client => ({
    client_id: web.clientId,
    token_endpoint_auth_method: 'none',
    [oauth.clockSkew]: Math.round((clock().now() - Date.now()) / 1000),
  });

  async function authorizationUrl() {
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const nonce = oauth.generateRandomNonce();
    const url = new URL(as.authorization_endpoint ?? '');
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: web.clientId,
      redirect_uri: served.callbackUri,
      scope: 'openid email',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    }).toString();
    return { url: url.toString(), verifier, state, nonce };
  }

  const heading = (page: Page, name: string) =>
    page.getByRole('heading', { level: 1, name, exact: true }).waitFor();

  async function signIn(page: Page, user: TestUser): Promise<void> {
    await heading(page, 'Sign in');
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, 'Enter your password');
    await page.getByLabel('Password', { exact: true }).fill(HOSTED_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** The callback's code redeemed at /token by oauth4webapi; the validated ID token claims. */
  async function redeem(page: Page, flow: { verifier: string; state: string; nonce: string }) {
    await page.waitForURL((url) => url.toString().startsWith(served.callbackUri));
    const params = oauth.validateAuthResponse(as, client(), new URL(page.url()), flow.state);
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client(),
      oauth.None(),
      params,
      served.callbackUri,
      flow.verifier,
      { [oauth.customFetch]: served.fetch, [oauth.allowInsecureRequests]: true },
    );
    const result = await oauth.processAuthorizationCodeResponse(as, client(), response, {
      expectedNonce: flow.nonce,
      requireIdToken: true,
    });
    return oauth.getValidatedIdTokenClaims(result);
  }

  it('sets up an authenticator when the organization requires it, shows the recovery codes, then signs in with a code', async () => {
    const { given, t } = served.hosted;
    const user = await given.user();
    const organization = await given.organization('Secure Co', user.id);
    await t.svc.admin.updateOrganizationMfaPolicyAsync(
      organization.id,
      organizationMfaPolicy({ requireMfaForAllUsers: true }),
    );
    const page = await browser.context.newPage();

    const first = await authorizationUrl();
    await page.goto(first.url);
    await signIn(page, user);
    await heading(page, 'Set up two-step verification');
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const secret = ((await page.locator('code.secret').textContent()) ?? '').replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from the app').fill(authenticatorCode(secret, clock().now()));
    await page.getByRole('button', { name: 'Turn on two-step verification' }).click();

    await heading(page, 'Save your recovery codes');
    const codes = await page.locator('ul.codes li').allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code.trim()).toMatch(/^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}$/);
    await page.getByRole('link', { name: 'Continue' }).click();
    expect(await redeem(page, first)).toMatchObject({
      sub: user.id,
      org_id: organization.id,
      amr: ['pwd', 'otp', 'mfa'],
    });

    // A new browser session: password, then a code of the app (the next time step: the first is used).
    await browser.context.clearCookies();
    clock().advance(TOTP_STEP_MS);
    const second = await authorizationUrl();
    await page.goto(second.url);
    await signIn(page, user);
    await heading(page, 'Two-step verification');
    await page.getByLabel('Code', { exact: true }).fill(authenticatorCode(secret, clock().now()));
    await page.getByRole('button', { name: 'Verify' }).click();
    expect(await redeem(page, second)).toMatchObject({ sub: user.id, amr: ['pwd', 'otp', 'mfa'] });
    await page.close();
  });
});
