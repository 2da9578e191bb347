import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../test-support/browser.js';
import { heading, signInWithPassword } from '../test-support/browser-flow.js';
import { HOSTED_PASSWORD } from '../test-support/hosted-test-app.js';
import { serveHostedApp, type ServedHostedApp } from '../test-support/served-hosted-app.js';

/**
 * The bundled dashboard (packages/dashboard/dist, built by `npm run build`) in Debian Chromium with
 * JavaScript on: an operator opens `/svc/`, signs in through the hosted pages, and uses the views under
 * the dashboard's own CSP, which must refuse nothing the app does.
 */
describe('the operator dashboard in a browser', () => {
  let served: ServedHostedApp;
  let browser: TestBrowser;
  const problems: string[] = [];

  beforeAll(async () => {
    served = await serveHostedApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  /** A page at `/svc/` signed in as `email` through the hosted pages; console errors go to `problems`. */
  async function openDashboard(email: string): Promise<Page> {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(`${served.origin}/svc/`);
    await signInWithPassword(page, email);
    return page;
  }

  it('takes an operator from /svc/ through the hosted login to users, clients and a session revoked', async () => {
    const { given, t } = served.hosted;
    const operator = await given.user();
    await t.svc.admin.setOperatorAsync(operator.email);
    const client = await given.client({ name: 'Browser Dashboard App' });
    const other = await given.user();
    const login = await served.hosted.inject({
      method: 'POST',
      url: '/svc/auth/password/login',
      payload: { email: other.email, password: HOSTED_PASSWORD, clientId: client.clientId },
    });
    expect(login.statusCode, login.body).toBe(200);

    const page = await openDashboard(operator.email);
    await page.getByRole('heading', { level: 2, name: 'Users' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/svc/');
    await expect.poll(() => page.locator('header').textContent()).toContain(operator.displayName);
    await page.getByRole('cell', { name: operator.email, exact: true }).waitFor();

    await page.getByRole('button', { name: 'Clients' }).click();
    const clientRow = page.getByRole('row').filter({ hasText: client.clientId });
    await clientRow.waitFor();
    expect(await clientRow.textContent()).toContain('Browser Dashboard App');

    await page.getByRole('button', { name: 'Sessions' }).click();
    const sessionRow = page.getByRole('row').filter({ hasText: other.id });
    await sessionRow.getByText('Active', { exact: true }).waitFor();
    await sessionRow.getByRole('button', { name: 'Revoke' }).click();
    await sessionRow.getByText('Revoke 1 session?').waitFor();
    await sessionRow.getByRole('button', { name: 'Confirm' }).click();
    await sessionRow.getByText('Revoked', { exact: true }).waitFor();
    const sessions = await t.svc.admin.listSessionsAsync({ userId: other.id });
    expect(sessions.data.map((session) => session.active)).toEqual([false]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname !== '/svc/');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses a user who is not an operator', async () => {
    const user = await served.hosted.given.user();
    const page = await openDashboard(user.email);
    await heading(page, 'Dashboard sign-in');
    expect(await page.textContent('main')).toContain('svc operator add');
    expect((await page.request.get(`${served.origin}/svc/api/session`)).status()).toBe(404);
    await page.close();
  });
});
