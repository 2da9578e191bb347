import type { SvcCreatedClient, SvcOrganization } from '@svc/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { BrowserTestClient, heading } from '../../test-support/browser-flow.js';
import { HOSTED_PASSWORD, uniqueName } from '../../test-support/hosted-test-app.js';
import { inviteToken } from '../../test-support/invitations.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';
import { startTestSmtpServer, type TestSmtpServer } from '../../test-support/smtp-server.js';

/**
 * An invitation-bound authorization end to end in Debian Chromium: the client sends the browser to
 * /authorize with the invitation token read from the mailed invitation, the invited address signs up
 * or signs in on the invitation page, and oauth4webapi validates the answer, redeems the code and
 * checks an ID token scoped to the invitation's organization.
 */
describe('hosted invitation-bound authorization in a browser', () => {
  let smtp: TestSmtpServer;
  let served: ServedHostedApp;
  let browser: TestBrowser;
  let rp: BrowserTestClient;
  let client: SvcCreatedClient;
  let org: SvcOrganization;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    served = await serveHostedApp({ smtpUrl: smtp.url() });
    browser = await launchBrowser();
    client = await served.hosted.given.client({ redirectUris: [served.callbackUri] });
    org = await served.hosted.given.organization('Acme Corp');
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

  /** An invitation to Acme Corp for `email`, and the token of the link mailed to it. */
  async function invite(email: string): Promise<string> {
    await served.hosted.t.svc.auth.createEmailInvitationAsync({
      organizationId: org.id,
      email,
      role: 'editor',
      clientId: client.clientId,
      redirectUri: served.callbackUri,
    });
    return inviteToken(smtp.to(email).at(-1)?.text ?? '');
  }

  it('a new address creates its account on the invitation page and the client gets tokens for the organization', async () => {
    const email = `${uniqueName('invitee')}@example.com`;
    const flow = await rp.authorizationUrl(client, { invitation_token: await invite(email) });
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await heading(page, 'Create your account');
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await page.getByLabel('Your name').fill('Dee Invitee');
    await page.getByRole('button', { name: 'Create account and join' }).click();

    const { claims } = await rp.redeem(page, client, flow);
    expect(claims).toMatchObject({ aud: client.clientId, nonce: flow.nonce, org_id: org.id, email });
    expect(claims?.amr).toEqual(['email']);

    // The invitation is used: the same authorization URL now shows the "no longer valid" page.
    await page.goto(flow.url);
    await heading(page, 'This invitation is no longer valid');
    await page.close();
  });

  it('an account in another organization signs in with its password on the invitation page and lands in the invited one', async () => {
    const user = await served.hosted.given.user();
    await served.hosted.given.organization('Northwind', user.id);
    const flow = await rp.authorizationUrl(client, { invitation_token: await invite(user.email) });
    const page = await browser.context.newPage();
    await page.goto(flow.url);
    await heading(page, 'Join Acme Corp');
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in and accept' }).click();
    await page.getByText('Email or password is incorrect.').waitFor();
    await page.getByLabel('Password', { exact: true }).fill(HOSTED_PASSWORD);
    await page.getByRole('button', { name: 'Sign in and accept' }).click();

    const { claims } = await rp.redeem(page, client, flow);
    expect(claims).toMatchObject({ sub: user.id, org_id: org.id, amr: ['pwd'] });
    await page.close();
  });
});
