import type { SvcCreatedClient } from '@svc/contract';
import * as oauth from 'oauth4webapi';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { phoneOtpRepository } from '../../storage/repositories/phone-otp.js';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { BrowserTestClient, heading } from '../../test-support/browser-flow.js';
import { FakeSmsProvider } from '../../test-support/fake-sms-provider.js';
import { uniqueName } from '../../test-support/hosted-test-app.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';

/**
 * Phone sign-in, signup and phone signup end to end in Debian Chromium: the SMS provider is the fake
 * Twilio Verify server on loopback (the code is read from what it "texted"), and oauth4webapi is the
 * client that validates the authorization response, redeems the code and calls userinfo.
 */
describe('phone sign-in and signup in a browser', () => {
  let fake: FakeSmsProvider;
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let rp: BrowserTestClient;
  let firstParty: SvcCreatedClient;
  let thirdParty: SvcCreatedClient;

  beforeAll(async () => {
    fake = await FakeSmsProvider.start();
    served = await serveHostedApp({ sms: fake.config() });
    browser = await launchBrowser();
    const redirectUris = [served.callbackUri];
    firstParty = await served.hosted.given.client({ redirectUris });
    thirdParty = await served.hosted.given.client({ isFirstParty: false, redirectUris });
    rp = await BrowserTestClient.discover(served);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
  });

  /** Types the code the fake provider texted to `e164` into the enter-code step. */
  async function enterTextedCode(page: Page, e164: string): Promise<void> {
    await heading(page, 'Check your phone');
    const code = fake.lastCode(e164);
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('Code', { exact: true }).fill(code ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  it('signs in with a texted code from the identify page', async () => {
    const { given } = served.hosted;
    const user = await given.user();
    const e164 = '+12015550501';
    await phoneOtpRepository(served.hosted.t.svc.database.db).setUserPhone(user.id, e164, Date.now());
    const flow = await rp.authorizationUrl(firstParty);
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await heading(page, 'Sign in');
    await page.getByRole('link', { name: 'Text me a sign-in code' }).click();
    await heading(page, 'Sign in with your phone');
    await page.getByLabel('Phone number', { exact: true }).fill('(201) 555-0501');
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await enterTextedCode(page, e164);
    const { payload } = await rp.redeem(page, firstParty, flow);
    expect(payload).toMatchObject({ sub: user.id, amr: ['sms'], email: user.email, nonce: flow.nonce });
    await page.close();
  });

  it('creates an account with an email and a password and returns to the client signed in', async () => {
    const flow = await rp.authorizationUrl(firstParty);
    const email = `${uniqueName('browser')}@example.com`;
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await heading(page, 'Sign in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await heading(page, 'Create your account');
    await page.getByLabel('Name', { exact: true }).fill('Browser Person');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    // The browser's own minlength check keeps the short password from being posted at all.
    expect(
      await page
        .getByLabel('Password', { exact: true })
        .evaluate((input) => (input as HTMLInputElement).validity.tooShort),
    ).toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('a long enough password');
    await page.getByLabel('Organization name (optional)', { exact: true }).fill('Browser Org');
    await page.getByRole('button', { name: 'Create account' }).click();
    const { payload } = await rp.redeem(page, firstParty, flow);
    expect(payload).toMatchObject({ email, name: 'Browser Person', amr: ['pwd'] });
    expect(typeof payload.org_id).toBe('string');
    await page.close();
  });

  it('signs up with a phone number for a third-party client: consent, tokens, and userinfo without email claims', async () => {
    const e164 = '+12015550502';
    const flow = await rp.authorizationUrl(thirdParty);
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await heading(page, 'Create your account');
    await page.getByRole('link', { name: 'Sign up with a phone number instead' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Phone Only');
    await page.getByLabel('Phone number', { exact: true }).fill('+1 201 555 0502');
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await enterTextedCode(page, e164);
    await heading(page, `Allow ${thirdParty.name} to access your account?`);
    // No address to show: the account is named by its display name.
    expect(await page.locator('p.lead', { hasText: 'Signed in as' }).innerText()).toContain('Phone Only');
    await page.getByRole('button', { name: 'Approve' }).click();

    const { payload, result } = await rp.redeem(page, thirdParty, flow);
    expect(payload).toMatchObject({ name: 'Phone Only', amr: ['sms'] });
    expect(payload).not.toHaveProperty('email');
    const info = await oauth.processUserInfoResponse(
      rp.as,
      rp.client(thirdParty),
      String(payload.sub),
      await oauth.userInfoRequest(rp.as, rp.client(thirdParty), result.access_token, rp.options),
    );
    expect(info).toMatchObject({ sub: payload.sub, name: 'Phone Only', amr: ['sms'] });
    for (const claim of ['email', 'email_verified', 'preferred_username'])
      expect(info).not.toHaveProperty(claim);
    await page.close();
  });
});
