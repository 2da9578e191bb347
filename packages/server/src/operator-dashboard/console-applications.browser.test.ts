import { auditEventPageSchema, svcApplicationAccessSchema, svcClientSchema } from '@svc/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, startConsole, type ConsoleFixture } from '../test-support/console-browser.js';
import { basicAuth, form } from '../test-support/oauth-http.js';

const ADMIN = '/svc/admin/auth/api';
const AUDIT = '/svc/admin/audit/api';
const SAFARI_ON_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const FIREFOX_ON_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

/**
 * The console's Applications and Policies pages in Chromium: a client made from a template with its
 * secret shown once and rotated (checked at /token), its settings edited, its access restricted and
 * checked, a scope display name edited beside a code-owned one, and the security settings' bounds. Each
 * result is read back through the operator API or the protocol.
 */
describe('the console: applications and policies', () => {
  let console: ConsoleFixture;

  beforeAll(async () => {
    console = await startConsole({
      scopeDisplayNames: [{ scope: 'reports:read', displayName: 'Read your reports' }],
    });
  });
  afterAll(() => console?.close());

  const api = async (path: string, base = ADMIN) => {
    const { hosted } = console.served;
    const response = await hosted.inject({
      method: 'GET',
      url: `${base}${path}`,
      headers: hosted.t.operator,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<unknown>();
  };
  /** POSTs to the operator API, expecting a 201; answers the created record's id. */
  const create = async (path: string, payload: object) => {
    const { hosted } = console.served;
    const response = await hosted.inject({ method: 'POST', url: path, headers: hosted.t.operator, payload });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ id: string }>().id;
  };
  const clientCredentials = async (clientId: string, secret: string) => {
    const { hosted } = console.served;
    const response = await hosted.inject({
      method: 'POST',
      url: `${hosted.authBase}/token`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basicAuth(clientId, secret),
      },
      payload: form({ grant_type: 'client_credentials' }),
    });
    return response.statusCode;
  };
  /** The field (label, control, hint and error) whose control is named `label`. */
  const fieldOf = (page: Page, label: string) =>
    page.locator('.field').filter({ has: page.getByLabel(label, { exact: true }) });
  /** Clicks the label of a React Aria radio or switch, whose input is visually hidden. */
  const choose = (control: Locator) => control.locator('xpath=ancestor::label[1]').click();
  const expectAccessible = async (page: Page) => expect(await accessibilityProblems(page)).toEqual([]);

  it('creates a web server app from its template, shows the secret once, rotates it, and edits its redirect URIs', async () => {
    const page = await console.open('/applications');
    await page.getByRole('button', { name: 'Create application' }).click();
    const create = page.getByRole('dialog', { name: 'Create an application' });
    await create.getByRole('button', { name: /Kind of application/ }).click();
    await page.getByRole('option', { name: 'Web server app', exact: true }).click();
    await create.getByText('Confidential (a secret sent with HTTP Basic').waitFor();
    await expectAccessible(page);
    const clientId = `billing-web-${process.pid}`;
    await create.getByLabel('Client ID', { exact: true }).fill(clientId);
    await create.getByLabel('Name', { exact: true }).fill('Billing');
    await create.getByLabel('Audience', { exact: true }).fill('https://billing.example.com/api');
    await create.getByLabel('Redirect URIs', { exact: true }).fill('https://billing.example.com/callback');
    await choose(create.getByRole('switch', { name: 'Client credentials' }));
    await create.getByRole('button', { name: 'Create application' }).click();

    const shown = page.getByRole('dialog', { name: 'Billing is created' });
    await shown.getByText('this is the only time it is shown').waitFor();
    const secret = await shown.getByLabel('Client secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expectAccessible(page);
    await console.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: console.served.origin,
    });
    await shown.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied the secret.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/svc/applications/${clientId}`);
    expect(await page.content()).not.toContain(secret);
    expect(svcClientSchema.parse(await api(`/clients/${clientId}`))).toMatchObject({
      isFirstParty: true,
      tokenEndpointAuthMethod: 'client_secret_basic',
      allowClientCredentials: true,
      allowedScopes: ['openid', 'profile', 'email'],
      redirectUris: ['https://billing.example.com/callback'],
    });
    expect(await clientCredentials(clientId, secret)).toBe(200);

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the client secret?' });
    await rotate.getByText('the current one stops working at once').waitFor();
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'The new client secret' });
    const newSecret = await rotated.getByLabel('New client secret', { exact: true }).inputValue();
    expect(newSecret).not.toBe(secret);
    await page.keyboard.press('Escape');
    await rotated.getByRole('button', { name: 'I have copied it' }).click();
    expect(await clientCredentials(clientId, secret)).toBe(401);
    expect(await clientCredentials(clientId, newSecret)).toBe(200);

    const redirects = page.getByLabel('Redirect URIs', { exact: true });
    await redirects.fill('https://billing.example.com/callback\nbilling.example.com/other');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await fieldOf(page, 'Redirect URIs').getByText('must be an absolute URI').waitFor();
    await expectAccessible(page);
    await redirects.fill('https://billing.example.com/callback\nhttps://billing.example.com/other');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved the settings of Billing.').waitFor();
    expect(svcClientSchema.parse(await api(`/clients/${clientId}`)).redirectUris).toEqual([
      'https://billing.example.com/callback',
      'https://billing.example.com/other',
    ]);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('restricts an application to an allowed user, checks two users, and deactivates it', async () => {
    const { given } = console.served.hosted;
    const client = await given.client({ name: 'Payroll' });
    const allowed = await given.user();
    const other = await given.user();
    // A group's deny, made through the API (the console adds users and organizations).
    const group = await create('/svc/admin/fga/api/groups', { name: 'Contractors' });
    await create(`${ADMIN}/applications/${client.id}/assignments`, {
      principalType: 'group',
      principalId: group,
      effect: 'deny',
    });
    const page = await console.open(`/applications/${client.clientId}`);
    await choose(page.getByRole('radio', { name: /^Selected users, groups and roles/ }));
    await page.getByRole('button', { name: 'Change access' }).click();
    const confirm = page.getByRole('dialog', { name: 'Change who may use Payroll?' });
    await confirm.getByText('From everyone to selected users, groups and roles').waitFor();
    await confirm.getByRole('button', { name: 'Change access' }).click();
    await page.getByText('Payroll is now open to: selected users, groups and roles.').waitFor();

    const access = page.getByRole('region', { name: 'Access', exact: true });
    await access.getByRole('combobox', { name: 'User' }).fill(allowed.email);
    await page.getByRole('option', { name: new RegExp(allowed.email) }).click();
    await access.getByRole('button', { name: 'Add assignment' }).click();
    // Each assignment by the name the list answers, not by its id.
    await access.getByRole('rowheader', { name: `${allowed.displayName} ${allowed.email}` }).waitFor();
    await access.getByRole('rowheader', { name: 'Contractors', exact: true }).waitFor();
    // Both may carry the same time (then their order is their ids'): compared in any order.
    const assigned = svcApplicationAccessSchema.parse(await api(`/applications/${client.id}/assignments`));
    expect(assigned.mode).toBe('selected_users_groups_roles');
    expect(assigned.data).toHaveLength(2);
    expect(assigned.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ principalType: 'user', principalId: allowed.id, effect: 'allow' }),
        expect.objectContaining({
          principalType: 'group',
          principal: expect.objectContaining({ name: 'Contractors' }),
          effect: 'deny',
        }),
      ]),
    );

    const check = page.getByRole('region', { name: "Check a user's access" });
    for (const [user, verdict, decision] of [
      [allowed, 'Allowed', 'allowed_by_assignment'],
      [other, 'Refused', 'not_assigned'],
    ] as const) {
      await check.getByRole('combobox', { name: 'User' }).fill(user.email);
      await page.getByRole('option', { name: new RegExp(user.email) }).click();
      await check.getByRole('button', { name: 'Check access' }).click();
      const result = check.getByRole('status');
      await result.getByText(`${user.displayName} <${user.email}>: ${decision}`).waitFor();
      expect(await result.textContent()).toContain(verdict);
    }
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Deactivate' }).click();
    const deactivate = page.getByRole('dialog', { name: 'Deactivate Payroll?' });
    await deactivate.getByText('Every session of Payroll is revoked now').waitFor();
    await expectAccessible(page);
    await deactivate.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    expect(svcClientSchema.parse(await api(`/clients/${client.clientId}`)).active).toBe(false);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('edits an operator’s scope display name; the one set in code is read-only', async () => {
    const { t } = console.served.hosted;
    const entry = await t.svc.admin.createScopeDisplayNameAsync({
      scope: 'invoices:read',
      displayName: 'Invoices',
    });
    const page = await console.open('/applications?view=scopes');
    const code = page.getByRole('row').filter({ hasText: 'reports:read' });
    await code.getByText('Set in code').waitFor();
    expect(await code.getByRole('button').count()).toBe(0);
    await page
      .getByRole('row')
      .filter({ hasText: 'invoices:read' })
      .getByRole('button', { name: 'Edit' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Edit the name of invoices:read' });
    await dialog.getByLabel('Display name', { exact: true }).fill('Read your invoices');
    await dialog.getByLabel('Description', { exact: true }).fill('Amounts and due dates.');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved the display name of invoices:read.').waitFor();
    const names = (await t.svc.admin.listScopeDisplayNamesAsync()).data;
    expect(names.find((name) => name.id === entry.id)).toMatchObject({
      displayName: 'Read your invoices',
      description: 'Amounts and due dates.',
    });
    await expectAccessible(page);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('refuses a security setting out of its bounds beside the field, saves one within them, and requires MFA of roles', async () => {
    const page = await console.open('/policies');
    const idle = page.getByLabel('Session idle timeout (minutes)', { exact: true });
    await idle.fill('0');
    await page.getByRole('button', { name: 'Save security settings' }).click();
    await fieldOf(page, 'Session idle timeout (minutes)')
      .getByText('sessionIdleTimeoutMinutes must be an integer from 1 to 5270400.')
      .waitFor();
    await expectAccessible(page);
    // Chromium reports the refused call itself; nothing else may go wrong.
    expect(console.problems.splice(0)).toEqual([expect.stringContaining('status of 400 (Bad Request)')]);
    await idle.fill('720');
    await fieldOf(page, 'Session idle timeout (minutes)').getByText('Now 12 hours.').waitFor();
    await page.getByRole('button', { name: 'Save security settings' }).click();
    await page.getByText('Saved the security settings.').waitFor();
    const { admin } = console.served.hosted.t.svc;
    expect((await admin.getSecuritySettingsAsync()).sessionIdleTimeoutMinutes).toBe(720);

    await choose(page.getByRole('switch', { name: 'Require MFA of owners and admins' }));
    await page.getByLabel('Also require MFA of these roles', { exact: true }).fill('Finance\nauditor');
    await page.getByRole('button', { name: 'Save MFA settings' }).click();
    await page.getByText('Saved the MFA settings.').waitFor();
    expect(await admin.getMfaSettingsAsync()).toMatchObject({
      requireForOwnersAndAdmins: true,
      requiredRoles: ['auditor', 'finance'],
    });
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('revokes an organization’s sessions after a preview of what ends, with a reason', async () => {
    const { given, t } = console.served.hosted;
    const client = await given.client({ name: 'Timesheets' });
    const [ada, bob, bystander] = [await given.user(), await given.user(), await given.user()];
    const organization = await given.organization('Acme Field Crew', ada.id);
    await t.svc.admin.createMembershipAsync({
      organizationId: organization.id,
      userId: bob.id,
      role: 'member',
    });
    const signIn = (user: { id: string }, organizationId: string | null, agent: string) =>
      t.svc.auth.createSessionTokensForUserAsync(user, client, organizationId, 'pwd', agent, '203.0.113.7');
    await signIn(ada, organization.id, SAFARI_ON_MAC);
    await signIn(bob, organization.id, FIREFOX_ON_WINDOWS);
    await signIn(bystander, null, FIREFOX_ON_WINDOWS);

    const page = await console.open(`/sessions?organizationId=${organization.id}`);
    const table = page.getByRole('grid', { name: 'Sessions' });
    const adaRow = table.getByRole('row').filter({ hasText: ada.email });
    await adaRow.getByText('Safari 17 on macOS').waitFor();
    expect(await adaRow.textContent()).toContain(ada.displayName);
    expect(await adaRow.textContent()).toContain('Timesheets');
    expect(await adaRow.textContent()).toContain('203.0.113.7');
    // The session's organization by its name, a link to its page.
    const named = adaRow.getByRole('link', { name: 'Acme Field Crew', exact: true });
    expect(await named.getAttribute('href')).toBe(`/svc/organizations/${organization.id}`);
    expect(await table.getByRole('row').count()).toBe(3);
    expect(await page.getByRole('combobox', { name: 'Organization' }).inputValue()).toBe('Acme Field Crew');
    await expectAccessible(page);

    await page.getByLabel("User's email", { exact: true }).fill(bob.email);
    await page.getByRole('button', { name: 'Find' }).click();
    await page.waitForURL((url) => url.searchParams.get('email') === bob.email);
    await table.getByRole('row').filter({ hasText: 'Firefox 128 on Windows' }).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);

    await page.getByRole('button', { name: 'Revoke sessions…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke sessions' });
    expect(await dialog.getByRole('combobox', { name: 'Organization' }).inputValue()).toBe('Acme Field Crew');
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await dialog.getByText('This ends 2 sessions and their 2 usable refresh tokens').waitFor();
    await dialog.getByLabel('Reason', { exact: true }).fill('Crew tablets lost');
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Revoke 2 sessions' }).click();
    await page.getByText('Revoked 2 sessions.').waitFor();

    const sessions = await t.svc.admin.listSessionsAsync({ clientId: client.clientId });
    expect(
      sessions.data
        .map(({ userId, active }) => ({ userId, active }))
        .sort((a, b) => a.userId.localeCompare(b.userId)),
    ).toEqual(
      [
        { userId: ada.id, active: false },
        { userId: bob.id, active: false },
        { userId: bystander.id, active: true },
      ].sort((a, b) => a.userId.localeCompare(b.userId)),
    );
    const events = auditEventPageSchema.parse(
      await api(`/events?kind=admin.sessions.revoked&organizationId=${organization.id}`, AUDIT),
    );
    expect(events.data).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({ reason: 'Crew tablets lost', newlyRevokedSessions: 2 }),
      }),
    ]);
    expect(console.problems).toEqual([]);
    await page.close();
  });
});
