import type { SvcCreatedClient } from '@svc/contract';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { BrowserTestClient, enterPassword, heading, identify } from '../../test-support/browser-flow.js';
import { uniqueName } from '../../test-support/hosted-test-app.js';
import { linkIn } from '../../test-support/outbox.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test-support/smtp-server.js';

const NEW_PASSWORD = 'a brand new passphrase';

/**
 * Password reset and invitation acceptance end to end in Debian Chromium: the links come by real SMTP on
 * loopback, the browser follows them, and oauth4webapi as the client redeems the code at /token and
 * validates the ID token.
 */
describe('password reset, email verification and invitations in a browser', () => {
  let smtp: TestSmtpServer;
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let rp: BrowserTestClient;
  let client: SvcCreatedClient;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    served = await serveHostedApp({ smtpUrl: smtp.url() });
    browser = await launchBrowser();
    client = await served.hosted.given.client({ redirectUris: [served.callbackUri] });
    rp = await BrowserTestClient.discover(served);
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
    await smtp?.close();
  });
  beforeEach(async () => {
    await browser.context.clearCookies();
  });

  /** The link of the newest email to `address` (the service answers only after SMTP accepted it). */
  const mailedLink = (address: string) => linkIn(smtp.to(address).at(-1)?.text ?? null);

  /** Starts an authorization as the client does: PKCE, state and nonce. */
  async function authorize(page: Page) {
    const flow = await rp.authorizationUrl(client);
    await page.goto(flow.url);
    return flow;
  }

  it('forgot password from the password step → mailed link → new password → signs in with it to tokens', async () => {
    const user = await served.hosted.given.user();
    const page = await browser.context.newPage();
    const flow = await authorize(page);
    await identify(page, user.email);
    await page.getByRole('link', { name: 'Forgot password?' }).click();

    await heading(page, 'Reset your password');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(user.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await heading(page, 'Check your email');

    await page.goto(mailedLink(user.email));
    await heading(page, 'Choose a new password');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await heading(page, 'Password changed');

    // Back to the sign-in the user started: the password step of the same request.
    await page.getByRole('link', { name: 'Sign in' }).click();
    await enterPassword(page, NEW_PASSWORD);
    const { claims } = await rp.redeem(page, client, flow);
    expect(claims).toMatchObject({ sub: user.id, email: user.email, amr: ['pwd'], nonce: flow.nonce });
    await page.close();
  });

  it('email verification: mailed link → the page does not use it → the button verifies once', async () => {
    const user = await served.hosted.given.user();
    const verified = async () =>
      (
        await served.hosted.t.svc.database.db
          .selectFrom('users')
          .select('emailVerified')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).emailVerified === 1;
    const sent = await fetch(`${served.origin}${served.hosted.authBase}/email/verification-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: user.email }),
    });
    expect(sent.status).toBe(200);
    const link = mailedLink(user.email);
    const page = await browser.context.newPage();
    await page.goto(link);
    await heading(page, 'Verify your email');
    // Opening the link (as a mail scanner would) verified nothing yet.
    expect(await verified()).toBe(false);
    await page.getByRole('button', { name: 'Verify email' }).click();
    await heading(page, 'Email verified');
    expect(await verified()).toBe(true);
    // Single use: the same link again is refused.
    await page.goto(link);
    await page.getByRole('button', { name: 'Verify email' }).click();
    await heading(page, 'Link not valid');
    await page.close();
  });

  it('operator invitation → mailed link → create an account → joined → continue to the client, which signs in silently', async () => {
    const organization = await served.hosted.given.organization('Northwind Traders');
    const email = `${uniqueName('invitee')}@example.com`;
    const created = await served.hosted.inject({
      method: 'POST',
      url: `/svc/admin/auth/api/organizations/${organization.id}/invitations`,
      headers: served.hosted.t.operator,
      payload: { email, role: 'member', clientId: client.clientId, redirectUri: served.callbackUri },
    });
    expect(created.statusCode).toBe(201);

    const page = await browser.context.newPage();
    await page.goto(mailedLink(email));
    await heading(page, 'Create your account');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await page.getByLabel('Your name', { exact: true }).fill('Nina Newcomer');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await heading(page, 'You have joined Northwind Traders');

    await page.getByRole('link', { name: `Continue to ${client.name}` }).click();
    await page.waitForURL(rp.atCallback);
    // The application starts its sign-in; the issuer session from joining answers it without a page.
    const flow = await authorize(page);
    const { claims } = await rp.redeem(page, client, flow);
    expect(claims).toMatchObject({ email, name: 'Nina Newcomer', org_id: organization.id, amr: ['email'] });
    await page.close();
  });
});
