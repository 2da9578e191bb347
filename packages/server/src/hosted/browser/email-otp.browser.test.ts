import type { SvcCreatedClient } from '@svc/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { BrowserTestClient, heading } from '../../test-support/browser-flow.js';
import { codeIn, linkIn } from '../../test-support/outbox.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test-support/smtp-server.js';

/**
 * Email sign-in end to end in Debian Chromium: the pages on a real port, the code and the link read
 * from mail received by a real SMTP server on loopback, and oauth4webapi as the client that validates
 * the authorization response, redeems the code and checks the ID token.
 */
describe('hosted email sign-in in a browser', () => {
  let smtp: TestSmtpServer;
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let rp: BrowserTestClient;
  let thirdParty: SvcCreatedClient;
  let firstParty: SvcCreatedClient;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    served = await serveHostedApp({ smtpUrl: smtp.url() });
    browser = await launchBrowser();
    const redirectUris = [served.callbackUri];
    thirdParty = await served.hosted.given.client({ isFirstParty: false, redirectUris });
    firstParty = await served.hosted.given.client({ redirectUris });
    rp = await BrowserTestClient.discover(served);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await smtp?.close();
  });

  const authorizationUrl = (client: SvcCreatedClient) =>
    rp.authorizationUrl(client, { scope: 'openid email' });

  /**
   * Opens the authorization, goes from the identify page to the email page, and asks with the address
   * and one of its two buttons; the message that then arrives.
   */
  async function askByEmail(page: Page, url: string, email: string, button: string) {
    const before = smtp.messages.length;
    await page.goto(url);
    await heading(page, 'Sign in');
    await page.getByRole('link', { name: 'Email me a sign-in code' }).click();
    await heading(page, 'Sign in with email');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: button, exact: true }).click();
    await heading(page, 'Check your email');
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    return mail;
  }

  it('signs in with the emailed code; a third-party client gets consent first; the client validates the tokens', async () => {
    const user = await served.hosted.given.user();
    const flow = await authorizationUrl(thirdParty);
    const page = await browser.context.newPage();
    const mail = await askByEmail(page, flow.url, user.email, 'Email me a sign-in code');
    expect(mail?.rcptTo).toEqual([user.email]);
    await page.getByLabel('Code', { exact: true }).fill(codeIn(mail?.text ?? null));
    await page.getByRole('button', { name: 'Continue' }).click();
    await heading(page, `Allow ${thirdParty.name} to access your account?`);
    await page.getByRole('button', { name: 'Approve' }).click();
    expect((await rp.redeem(page, thirdParty, flow)).claims).toMatchObject({
      sub: user.id,
      email: user.email,
      email_verified: true,
      amr: ['otp'],
      nonce: flow.nonce,
    });
    await page.close();
  });

  it('signs in with the emailed link opened in the same browser, without JavaScript', async () => {
    const noScript = await launchBrowser({ javaScriptEnabled: false });
    try {
      const user = await served.hosted.given.user();
      const flow = await authorizationUrl(firstParty);
      const page = await noScript.context.newPage();
      const mail = await askByEmail(page, flow.url, user.email, 'Email me a sign-in link');
      // The link opens in a new tab of the same browser, as a mail client would open it.
      const tab = await noScript.context.newPage();
      await tab.goto(linkIn(mail?.text ?? null));
      await heading(tab, 'Continue signing in');
      await tab.getByRole('button', { name: 'Continue' }).click();
      expect((await rp.redeem(tab, firstParty, flow)).claims).toMatchObject({ sub: user.id, amr: ['email'] });
    } finally {
      await noScript.close();
    }
  });
});
