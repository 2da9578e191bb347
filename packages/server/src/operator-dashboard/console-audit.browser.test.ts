import { readFile } from 'node:fs/promises';
import {
  auditEventPageSchema,
  auditEventSchema,
  auditSummarySchema,
  emailDeliveryViewSchema,
  emailTemplateViewSchema,
  pageSchema,
} from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { heading } from '../test-support/browser-flow.js';
import { accessibilityProblems, startConsole, type ConsoleFixture } from '../test-support/console-browser.js';
import { HOSTED_PASSWORD } from '../test-support/hosted-test-app.js';
import { startTestSmtpServer, type TestSmtpServer } from '../test-support/smtp-server.js';
import { TEST_ADMIN_TOKEN } from '../test-support/test-svc.js';

/**
 * The console's Overview, Audit and Email pages in Chromium under the console's CSP: the overview's
 * counts against events made through the sign-in API, a bar into the filtered audit stream, filters,
 * an event's record and the export, and an email template overridden, previewed, test-sent through a
 * loopback SMTP server and reset, each result read back through the operator API.
 */
describe('the console: overview, audit and email', () => {
  let console: ConsoleFixture;
  let smtp: TestSmtpServer;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    console = await startConsole({ smtpUrl: smtp.url() });
  });
  afterAll(async () => {
    await console?.close();
    await smtp?.close();
  });

  /** An operator API answer, checked with its contract schema. */
  async function api<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
    const response = await console.served.hosted.inject({
      method: 'GET',
      url: `/svc/admin${path}`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return schema.parse(response.json()) as z.output<S>;
  }

  const events = (query: Record<string, string>) =>
    api(
      `/audit/api/events?${new URLSearchParams({ limit: '200', ...query }).toString()}`,
      auditEventPageSchema,
    );

  /**
   * Password sign-ins of two new users through the direct API: Ada twice, Bob once, and one wrong
   * password of Ada's. Answers Ada.
   */
  async function passwordSignIns() {
    const { given, inject } = console.served.hosted;
    const { clientId } = await given.client();
    const [ada, bob] = [await given.user(), await given.user()];
    const signIn = async (email: string, password = HOSTED_PASSWORD) => {
      const response = await inject({
        method: 'POST',
        url: '/svc/auth/password/login',
        payload: { email, password, clientId },
      });
      expect(response.statusCode, response.body).toBe(password === HOSTED_PASSWORD ? 200 : 401);
    };
    await signIn(ada.email);
    await signIn(ada.email);
    await signIn(bob.email);
    await signIn(ada.email, 'not the password');
    return ada;
  }

  it('counts the sign-ins of the audit stream, and a bar opens the events it counts', async () => {
    await passwordSignIns();

    // The operator's own sign-in to the console, and the three above.
    const summary = await api('/audit/api/events/summary?window=24h', auditSummarySchema);
    expect(summary.totals).toMatchObject({ signIns: 4, failedSignIns: 1 });
    // A token session of each sign-in, all begun in the current hour.
    expect(summary.activeSessions).toBe(4);
    expect(summary.buckets.map((bucket) => bucket.activeSessions).slice(-2)).toEqual([0, 4]);
    expect((await events({ kind: summary.kinds.signIns })).data).toHaveLength(4);

    const page = await console.open('/');
    await page.waitForURL((url) => url.pathname === '/svc/overview');
    await heading(page, 'Overview');
    const signIns = page.getByRole('region', { name: 'Sign-ins', exact: true });
    await signIns.getByRole('link', { name: '4 sign-ins', exact: true }).waitFor();
    await page
      .getByRole('region', { name: 'Failed sign-ins' })
      .getByRole('link', { name: '1 failed sign-in', exact: true })
      .waitFor();
    await signIns.getByRole('img', { name: /4 sign-ins in the last 24 hours; the most, 4/ }).waitFor();
    await signIns.getByText('Sign-ins per hour').click();
    const sessions = page.getByRole('region', { name: 'Active sessions' });
    await sessions
      .getByRole('img', { name: /: 4 active sessions now; the most in the last 24 hours, 4, now\./ })
      .waitFor();
    await sessions.getByText('Active sessions at the end of each hour').click();
    await sessions.getByRole('row', { name: 'now 4' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('navigation', { name: 'Window' }).getByRole('link', { name: '7 days' }).click();
    await signIns.getByRole('img', { name: /4 sign-ins in the last 7 days/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('window')).toBe('7d');

    await page.getByRole('navigation', { name: 'Window' }).getByRole('link', { name: '24 hours' }).click();
    await signIns.getByTitle(/: 4 sign-ins$/).click();
    await heading(page, 'Audit');
    const url = new URL(page.url());
    expect(url.searchParams.get('kind')).toBe(summary.kinds.signIns);
    const bucket = summary.buckets.findIndex((candidate) => candidate.signIns === 4);
    expect(url.searchParams.get('from')).toBe(summary.buckets[bucket]?.start);
    expect(url.searchParams.get('to')).toBe(summary.buckets[bucket + 1]?.start ?? summary.to);
    await expect.poll(() => page.getByRole('row').count()).toBe(5);
    // The bar's link selects exactly the events it counts.
    const listed = await events(Object.fromEntries(url.searchParams));
    expect(listed.data).toHaveLength(4);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('filters the stream by kind and user, opens an event, and exports what the filters select', async () => {
    const ada = await passwordSignIns();

    const page = await console.open('/audit');
    await heading(page, 'Audit');
    await page.getByRole('textbox', { name: 'Kind' }).fill('Not A Kind');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText(/expected an event kind such as/).waitFor();

    await page.getByRole('textbox', { name: 'Kind' }).fill('oauth.direct_login.*');
    await page.getByRole('textbox', { name: 'User' }).fill(ada.id);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.get('userId') === ada.id);
    const expected = await events({ kind: 'oauth.direct_login.*', userId: ada.id });
    expect(expected.data.map((event) => event.kind)).toEqual([
      'oauth.direct_login.succeeded',
      'oauth.direct_login.succeeded',
    ]);
    await expect.poll(() => page.getByRole('row').count()).toBe(3);
    expect(await accessibilityProblems(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export as JSON lines' }).click(),
    ]);
    const exported = (await readFile(await download.path(), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => auditEventSchema.parse(JSON.parse(line)));
    expect(exported).toEqual(expected.data);

    await page.getByRole('row').nth(1).click();
    const [first] = expected.data;
    await page.waitForURL((url) => url.pathname === `/svc/audit/${first?.id}`);
    await heading(page, 'oauth.direct_login.succeeded');
    await page.getByText('"method": "password"').waitFor();
    const userLink = page.getByRole('link', { name: ada.id });
    expect(await userLink.first().getAttribute('href')).toBe(`/svc/users/${ada.id}`);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('link', { name: 'Events of this user' }).click();
    await page.waitForURL(
      (url) => url.pathname === '/svc/audit' && url.searchParams.get('userId') === ada.id,
    );
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('overrides an email template, previews it, sends it as a test, and resets it', async () => {
    const page = await console.open('/email');
    await heading(page, 'Email');
    await page.getByRole('rowheader', { name: 'Magic sign-in link' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('rowheader', { name: 'Magic sign-in link' }).click();
    await heading(page, 'Magic sign-in link');

    await page.getByLabel('Subject').fill('Console check of {{productName}}');
    await page.getByLabel('{{productName}}').fill('Acme');
    await page.getByRole('button', { name: 'Preview the content above' }).click();
    await page.getByText('Console check of Acme').waitFor();
    const frame = page.frameLocator('iframe[title="The HTML part, rendered"]');
    await frame.getByText('Click the button to sign in.').waitFor();
    // The message's inline style attributes apply in the frame (the console's CSP lets them).
    expect(await frame.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor)).toBe(
      'rgb(244, 245, 247)',
    );
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save override' }).click();
    await page.getByText('Override saved.').waitFor();
    const saved = await api('/email/api/templates/auth.magic-link', emailTemplateViewSchema);
    expect(saved).toMatchObject({ overridden: true, subject: 'Console check of {{productName}}' });

    // The template page's test send mails this template, override included, not the test message.
    await page.getByLabel('Send a test message to').fill('ops@example.com');
    await page.getByRole('button', { name: 'Send test' }).click();
    await page.getByText(/^Sent to ops@example\.com: the mail server accepted it/).waitFor();
    const [mail] = await smtp.waitFor(1);
    expect(mail?.headers.subject).toBe('Console check of Svc');
    expect(mail?.text).toContain('https://example.com/svc/auth/sample-link');
    const sent = await api('/email/api/deliveries?status=sent', pageSchema(emailDeliveryViewSchema));
    expect(sent.data.map((delivery) => [delivery.to, delivery.templateKey, delivery.subject])).toEqual([
      ['ops@example.com', 'auth.magic-link', 'Console check of Svc'],
    ]);
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('link', { name: '← Email' }).click();
    await page.getByRole('rowheader', { name: 'ops@example.com' }).waitFor();

    await page.goBack();
    await heading(page, 'Magic sign-in link');
    await page.getByRole('button', { name: 'Reset to default' }).click();
    const dialog = page.getByRole('dialog', { name: 'Reset this template to the default?' });
    await dialog.getByText('the built-in template is used again for every message from now on').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Reset to default' }).click();
    await page.getByText('Override removed.').waitFor();
    const reset = await api('/email/api/templates/auth.magic-link', emailTemplateViewSchema);
    expect(reset).toMatchObject({ overridden: false, subject: 'Sign in to {{productName}}' });
    expect(await page.getByLabel('Subject').inputValue()).toBe('Sign in to {{productName}}');
    expect(console.problems).toEqual([]);
    await page.close();
  });
});
