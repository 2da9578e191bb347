import type { SvcCreatedClient } from '@svc/contract';
import * as oauth from 'oauth4webapi';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { HOSTED_PASSWORD, type TestUser } from '../../test-support/hosted-test-app.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';

/**
 * The device authorization grant end to end: oauth4webapi plays the device (RFC 8628 start and polling,
 * with its strict response and ID token checks), Debian Chromium plays the user's phone or laptop that
 * opens verification_uri_complete, signs in and approves or denies on the hosted pages.
 */
describe('device sign-in in a browser', () => {
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let as: oauth.AuthorizationServer;
  let tv: SvcCreatedClient;
  let device: oauth.Client;
  let options: { [oauth.customFetch]: ServedHostedApp['fetch']; [oauth.allowInsecureRequests]: true };

  beforeAll(async () => {
    served = await serveHostedApp();
    browser = await launchBrowser();
    tv = await served.hosted.given.client({ isFirstParty: false, allowDeviceAuthorization: true });
    options = { [oauth.customFetch]: served.fetch, [oauth.allowInsecureRequests]: true };
    const issuer = new URL(served.issuer);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, options));
    // oauth4webapi checks token times against Date.now(); the served app's clock started at real time.
    const skew = Math.round((served.hosted.t.clock.now() - Date.now()) / 1000);
    device = { client_id: tv.clientId, [oauth.clockSkew]: skew };
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
  });

  const startDevice = async () =>
    oauth.processDeviceAuthorizationResponse(
      as,
      device,
      await oauth.deviceAuthorizationRequest(
        as,
        device,
        oauth.None(),
        { scope: 'openid profile email' },
        options,
      ),
    );
  const poll = async (deviceCode: string) =>
    oauth.processDeviceCodeResponse(
      as,
      device,
      await oauth.deviceCodeGrantRequest(as, device, oauth.None(), deviceCode, options),
    );

  async function heading(page: Page, name: string): Promise<void> {
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  }

  /** Opens the device's link, continues with the prefilled code, signs in, and waits for the approval. */
  async function signInForDevice(page: Page, started: oauth.DeviceAuthorizationResponse, user: TestUser) {
    await page.goto(started.verification_uri_complete ?? '');
    await heading(page, 'Connect a device');
    expect(await page.getByLabel('Code', { exact: true }).inputValue()).toBe(started.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, 'Sign in');
    await page.getByLabel('Email', { exact: true }).fill(user.email);
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, 'Enter your password');
    await page.getByLabel('Password', { exact: true }).fill(HOSTED_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await heading(page, `Sign in to ${tv.name} on your device?`);
    expect(await page.locator('p.user-code').textContent()).toBe(started.user_code);
  }

  it('the device starts, the user approves in the browser, and the device polls validated tokens', async () => {
    const user = await served.hosted.given.user();
    const started = await startDevice();
    expect(started.verification_uri).toBe(`${served.issuer}/device`);
    const page = await browser.context.newPage();

    await signInForDevice(page, started, user);
    expect(await page.locator('ul.scopes li').allTextContents()).toEqual([
      'Confirm who you are when you sign in',
      'See your name and username',
      'See your email address',
    ]);
    await page.getByRole('button', { name: 'Approve' }).click();
    await heading(page, 'Device connected');

    const tokens = await poll(started.device_code);
    expect(tokens.scope).toBe('openid profile email');
    expect(oauth.getValidatedIdTokenClaims(tokens)).toMatchObject({
      iss: served.issuer,
      sub: user.id,
      aud: tv.clientId,
      email: user.email,
      amr: ['pwd'],
    });
    await page.close();
  });

  it('works without JavaScript; denying makes the device poll access_denied', async () => {
    const user = await served.hosted.given.user();
    const started = await startDevice();
    const noScript = await launchBrowser({ javaScriptEnabled: false });
    try {
      const page = await noScript.context.newPage();
      await signInForDevice(page, started, user);
      await page.getByRole('button', { name: 'Deny' }).click();
      await heading(page, 'Request denied');
    } finally {
      await noScript.close();
    }
    const refusal = await poll(started.device_code).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(oauth.ResponseBodyError);
    expect(refusal).toMatchObject({ error: 'access_denied' });
  });
});
