import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityProblems,
  startConsole,
  type ConsoleFixture,
  openedDialog,
  pickOption,
} from '../test-support/console-browser.js';
import { createDocumentModel, fgaApi } from '../test-support/fga-api.js';
import { uniqueName } from '../test-support/hosted-test-app.js';
import { GROUP_SCHEMA, scimUser } from '../test-support/scim.js';

/**
 * The console's directory sync in Chromium: an operator creates a SCIM connection (its token shown
 * once), enables it and adds a mapping rule inside its grant boundary; the identity provider's SCIM
 * requests with that token then provision a user and a group, the sync events show it, and the rule's
 * grant is read through the FGA API. Rotation ends the old token. axe checks each page and dialog; the
 * calendar page (calendar connections on, as by default) lists none.
 */
describe('the console: directory sync', () => {
  let console: ConsoleFixture;

  beforeAll(async () => {
    console = await startConsole();
  });
  afterAll(async () => {
    await console?.close();
  });

  const svc = () => console.served.hosted.t.svc;
  const expectAccessible = async (page: Page) => expect(await accessibilityProblems(page)).toEqual([]);

  /** A SCIM request as an identity provider sends it. */
  async function scim(baseUrl: string, token: string, method: string, path: string, body?: unknown) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('creates a connection and a mapping rule, and shows what the identity provider then provisioned', async () => {
    const api = fgaApi(svc());
    const model = await createDocumentModel(api, 'scim-');
    const root = await api.create('/resources', {
      name: 'Acme tenant',
      typeId: model.organizationType,
      parentId: null,
    });
    const organization = await console.served.hosted.given.organization(uniqueName('Acme'));
    const page = await console.open(`/organizations/${organization.id}?tab=directory-sync`);
    page.setDefaultTimeout(10_000);
    await page.getByText('No SCIM connections.').waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New SCIM connection' }).click();
    const create = await openedDialog(page, `New SCIM connection for ${organization.name}`);
    await create.getByLabel('Name', { exact: true }).fill('Acme Entra');
    await pickOption(create, page, 'Grant boundary', 'Acme tenant');
    await create.getByRole('button', { name: 'Create connection' }).click();
    const shown = await openedDialog(page, 'The bearer token');
    const token = await shown.getByLabel('Bearer token', { exact: true }).inputValue();
    const baseUrl = await shown.getByLabel('SCIM base URL', { exact: true }).inputValue();
    expect(baseUrl).toBe(`${console.served.origin}/svc/scim/v2`);
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    await shown.waitFor({ state: 'detached' });
    const [connection] = (await svc().admin.listScimConnectionsAsync(organization.id)).data;
    expect(connection).toMatchObject({
      displayName: 'Acme Entra',
      enabled: false,
      grantBoundary: { resourceId: root, status: 'configured' },
    });

    await page.getByRole('row').filter({ hasText: 'Acme Entra' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Entra' }).waitFor();
    await page.getByText('No mapping rules.').waitFor();
    await page.getByText('No sync events yet.').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await page.getByRole('button', { name: 'Disable', exact: true }).waitFor();

    await page.getByRole('button', { name: 'New mapping rule' }).click();
    const rule = await openedDialog(page, 'New mapping rule');
    await rule.getByLabel('Name', { exact: true }).fill('Engineers view the tenant');
    await rule.getByRole('button', { name: 'Create rule' }).click();
    // The contract's rule: a group must be named one way or the other.
    await rule.getByText('must name groupDisplayName, groupExternalId or both').waitFor();
    await rule.getByLabel('SCIM group name', { exact: true }).fill('Engineering');
    await pickOption(rule, page, 'Role', 'Viewer (scim-viewer)');
    await pickOption(rule, page, 'On resource', 'Acme tenant');
    await rule.getByRole('button', { name: 'Create rule' }).click();
    await rule.waitFor({ state: 'detached' });
    const rules = page.getByRole('grid', { name: 'Mapping rules' });
    await rules.getByRole('rowheader', { name: 'Engineers view the tenant' }).waitFor();
    await rules.getByText('Inside the boundary').waitFor();

    // The identity provider pushes a user and a group of it, with the token the console showed.
    const user = await scim(baseUrl, token, 'POST', '/Users', scimUser('grace@acme.test'));
    expect(user.status).toBe(201);
    const userId = String(user.body.id);
    const group = await scim(baseUrl, token, 'POST', '/Groups', {
      schemas: [GROUP_SCHEMA],
      displayName: 'Engineering',
      members: [{ value: userId }],
    });
    expect(group.status).toBe(201);
    const grants = await api.call('GET', `/grants?managedBy=${encodeURIComponent(`scim:${connection?.id}`)}`);
    expect(grants.body.data).toEqual([
      expect.objectContaining({
        subject: { type: 'user', id: userId },
        roleId: model.viewer,
        resourceId: root,
      }),
    ]);

    const eventsPanel = page.getByRole('region', { name: 'Sync events' });
    await eventsPanel.getByRole('button', { name: 'Refresh' }).click();
    const events = page.getByRole('grid', { name: 'Sync events' });
    await events.getByRole('row').filter({ hasText: 'user created' }).filter({ hasText: userId }).waitFor();
    await pickOption(eventsPanel, page, 'Outcome', 'Refused');
    await eventsPanel.getByText('No refused sync events.').waitFor();
    await pickOption(eventsPanel, page, 'Outcome', 'Done');
    await events.getByRole('row').filter({ hasText: 'user created' }).filter({ hasText: userId }).waitFor();
    await expectAccessible(page);

    // Rotation: the new token shown once, the old one refused from now on.
    await page.getByRole('button', { name: 'Rotate token' }).click();
    const rotate = await openedDialog(page, 'Rotate the bearer token?');
    await rotate.getByRole('button', { name: 'Rotate token' }).click();
    const rotated = await openedDialog(page, 'The new bearer token');
    const next = await rotated.getByLabel('Bearer token', { exact: true }).inputValue();
    await rotated.getByRole('button', { name: 'I have copied it' }).click();
    expect((await scim(baseUrl, token, 'GET', '/Users')).status).toBe(401);
    expect((await scim(baseUrl, next, 'GET', '/Users')).status).toBe(200);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it("lists calendar connections when they are on: a user's, none yet", async () => {
    const user = await console.served.hosted.given.user();
    const page = await console.open(`/calendar?userId=${user.id}`);
    await page.getByText('No calendar connections.').waitFor();
    expect(await page.getByRole('combobox', { name: 'User' }).inputValue()).toBe(user.displayName);
    expect((await svc().calendar.listConnectionsAsync({ userId: user.id })).data).toEqual([]);
    await expectAccessible(page);
    expect(console.problems).toEqual([]);
    await page.close();
  });
});
