import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heading, signInWithPassword } from '../test-support/browser-flow.js';
import { accessibilityProblems, startConsole, type ConsoleFixture } from '../test-support/console-browser.js';
import { HOSTED_PASSWORD } from '../test-support/hosted-test-app.js';

/**
 * The console's frame (packages/dashboard/dist, built by `npm run build`) in Debian Chromium with
 * JavaScript on, under the dashboard's own CSP, which must refuse nothing the app does: the hosted
 * sign-in, links of their own for every page, the sections' navigation on a wide and a phone screen,
 * the colour schemes, and a session revoked behind a confirmation.
 */
describe('the operator console in a browser', () => {
  let console: ConsoleFixture;

  beforeAll(async () => {
    console = await startConsole();
  });
  afterAll(() => console?.close());

  it('opens a deep link after the sign-in, and every page of the frame passes axe in both schemes', async () => {
    const page = await console.open('/');
    await page.waitForURL((url) => url.pathname === '/svc/overview');
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await page.getByRole('rowheader', { name: console.operator.displayName }).waitFor();
    expect(await page.getByRole('banner').textContent()).toContain(console.operator.email);
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'Applications' }).click();
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/svc/applications');
    expect(await page.title()).toBe('Applications · Svc');

    await page.getByRole('button', { name: /Colour scheme/ }).click();
    await page.getByRole('option', { name: 'Dark' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.scheme)).toBe('dark');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Applications' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.scheme)).toBe('dark');
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('says so at a console link that names no page, inside the frame', async () => {
    const page = await console.open('/users/usr_1/nothing/here');
    await page.getByRole('heading', { level: 1, name: 'Not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to the console’s home' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('on a phone, the sections sit behind a Menu button the keyboard can reach', async () => {
    const page = await console.open('/sessions');
    await page.setViewportSize({ width: 390, height: 800 });
    const sections = page.getByRole('navigation', { name: 'Sections' });
    await expect.poll(() => sections.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).focus();
    await page.keyboard.press('Enter');
    await sections.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
    await expect.poll(() => sections.isVisible()).toBe(false);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('revokes a session after a confirmation that says what it ends', async () => {
    const { given, t, inject } = console.served.hosted;
    const client = await given.client({ name: 'Browser Dashboard App' });
    const other = await given.user();
    const login = await inject({
      method: 'POST',
      url: '/svc/auth/password/login',
      payload: { email: other.email, password: HOSTED_PASSWORD, clientId: client.clientId },
    });
    expect(login.statusCode, login.body).toBe(200);

    const page = await console.open('/sessions');
    const row = page.getByRole('row').filter({ hasText: other.email });
    await row.getByText('Active', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke this session?' });
    await dialog.getByText('This ends 1 session and its 1 usable refresh token').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Revoked 1 session.').waitFor();
    await row.getByText('Revoked', { exact: true }).waitFor();
    const sessions = await t.svc.admin.listSessionsAsync({ userId: other.id });
    expect(sessions.data.map((session) => session.active)).toEqual([false]);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('refuses a user who is not an operator', async () => {
    const user = await console.served.hosted.given.user();
    const context = await console.browser.context.browser()?.newContext();
    if (context === undefined) throw new Error('no browser');
    const page = await context.newPage();
    await page.goto(`${console.served.origin}/svc/users`);
    await signInWithPassword(page, user.email);
    await heading(page, 'Dashboard sign-in');
    expect(await page.textContent('main')).toContain('svc operator add');
    expect((await page.request.get(`${console.served.origin}/svc/api/session`)).status()).toBe(404);
    await context.close();
  });
});
