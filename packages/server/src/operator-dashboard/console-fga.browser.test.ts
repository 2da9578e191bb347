import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityProblems,
  startConsole,
  type ConsoleFixture,
  openedDialog,
  pickOption,
} from '../test-support/console-browser.js';
import { createDocumentModel, createFgaUser, fgaApi } from '../test-support/fga-api.js';
import { operatorApi } from '../test-support/operator-api.js';

/**
 * The console's fine-grained authorization section in Chromium: an operator adds a resource type (the
 * contract's key rule shown beside the field), models a resource tree, moves and deletes a resource,
 * puts a user in a group and grants the group a role on the root, and asks the access tester, whose
 * answer and explanation match the FGA check of the API. axe checks each tab and dialog. Calendar
 * connections are off here, and their page says so.
 */
describe('the console: fine-grained authorization', () => {
  let console: ConsoleFixture;

  beforeAll(async () => {
    // Calendar connections off: the calendar page says so (the SCIM file's server has them on).
    console = await startConsole({ calendar: { enabled: false } });
  });
  afterAll(async () => {
    await console?.close();
  });

  const svc = () => console.served.hosted.t.svc;
  const expectAccessible = async (page: Page) => expect(await accessibilityProblems(page)).toEqual([]);

  async function createResource(page: Page, trigger: string, title: string, name: string, type: string) {
    await page.getByRole('button', { name: trigger, exact: true }).click();
    const create = await openedDialog(page, title);
    await create.getByLabel('Name', { exact: true }).fill(name);
    await pickOption(create, page, 'Type', type);
    await create.getByRole('button', { name: 'Create resource' }).click();
    await create.waitFor({ state: 'detached' });
    await page.getByRole('heading', { level: 2, name }).waitFor();
  }

  it('models a resource tree with a grant and explains the access tester’s answer', async () => {
    const api = fgaApi(svc());
    const model = await createDocumentModel(api, 'console-');
    const userId = await createFgaUser(svc(), 'ada-console');
    const page = await console.open('/authorization');
    page.setDefaultTimeout(10_000);
    await page.getByText('No resources.').waitFor();
    await expectAccessible(page);

    // The model tab: a type refused by the contract's key rule before it is sent, then made.
    await page.getByRole('tab', { name: 'Types and roles' }).click();
    await page.getByRole('rowheader', { name: 'console-viewer' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'New resource type' }).click();
    const type = await openedDialog(page, 'New resource type');
    await type.getByLabel('Key', { exact: true }).fill('Folder!');
    await type.getByLabel('Name', { exact: true }).fill('Folder');
    await type.getByRole('button', { name: 'Create resource type' }).click();
    await type.getByText(/must be 1-100 lower-case letters/).waitFor();
    await type.getByLabel('Key', { exact: true }).fill('console-folder');
    await type.getByRole('button', { name: 'Create resource type' }).click();
    await type.waitFor({ state: 'detached' });
    await page.getByRole('rowheader', { name: 'console-folder' }).waitFor();

    // The tree: a workspace, a project under it and a document under that.
    await page.getByRole('tab', { name: 'Resources' }).click();
    await createResource(
      page,
      'New resource',
      'New resource',
      'Acme workspace',
      'Organization (console-organization)',
    );
    await createResource(
      page,
      'Add child',
      'A resource under Acme workspace',
      'Roadmap',
      'Project (console-project)',
    );
    await createResource(
      page,
      'Add child',
      'A resource under Roadmap',
      'Spec',
      'Document (console-document)',
    );
    await createResource(page, 'New resource', 'New resource', 'Scratch', 'Folder (console-folder)');
    const tree = page.getByRole('navigation', { name: 'Resource tree' });
    await tree
      .getByRole('listitem')
      .filter({ hasText: 'Roadmap' })
      .getByRole('button', { name: /^Spec/ })
      .waitFor();
    await expectAccessible(page);

    // Move the scratch folder under the workspace, then delete it.
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    const move = await openedDialog(page, 'Move Scratch');
    await pickOption(move, page, 'New parent', 'Acme workspace');
    await move.getByRole('button', { name: 'Move', exact: true }).click();
    await move.waitFor({ state: 'detached' });
    await page
      .getByText('Acme workspace', { exact: true })
      .filter({ has: page.locator('xpath=self::dd') })
      .waitFor();
    const resources = (await api.call('GET', '/resources?limit=200')).body.data as {
      id: string;
      name: string;
      parentId: string | null;
    }[];
    const byName = (name: string) => resources.find((resource) => resource.name === name);
    expect(byName('Scratch')?.parentId).toBe(byName('Acme workspace')?.id);
    expect(byName('Spec')?.parentId).toBe(byName('Roadmap')?.id);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const remove = await openedDialog(page, 'Delete Scratch?');
    await remove.getByRole('button', { name: 'Delete', exact: true }).click();
    await remove.waitFor({ state: 'detached' });
    await tree.getByRole('button', { name: /^Scratch/ }).waitFor({ state: 'detached' });

    // A group with the user in it, and a grant of the viewer role to the group on the workspace.
    await page.getByRole('tab', { name: 'Groups' }).click();
    await page.getByText('No groups.').waitFor();
    await page.getByRole('button', { name: 'New group' }).click();
    const group = await openedDialog(page, 'New group');
    await group.getByLabel('Name', { exact: true }).fill('Console engineers');
    await group.getByRole('button', { name: 'Create group' }).click();
    await group.waitFor({ state: 'detached' });
    await page
      .getByRole('row')
      .filter({ hasText: 'Console engineers' })
      .getByRole('button', { name: 'Members' })
      .click();
    const members = await openedDialog(page, 'Members of Console engineers');
    await members.getByRole('combobox', { name: 'Add a user' }).fill('ada-console');
    await page.getByRole('option', { name: /ada-console@example\.com/ }).click();
    await members.getByRole('button', { name: 'Add', exact: true }).click();
    await members.getByRole('rowheader', { name: 'ada-console' }).waitFor();
    await expectAccessible(page);
    await members.getByRole('button', { name: 'Close', exact: true }).click();
    const groupId = ((await api.call('GET', '/groups')).body.data as { id: string; name: string }[]).find(
      (listed) => listed.name === 'Console engineers',
    )?.id;
    expect((await api.call('GET', `/groups/${groupId}/members`)).body.data).toEqual([
      expect.objectContaining({ userId }),
    ]);

    await page.getByRole('tab', { name: 'Resources' }).click();
    await tree.getByRole('button', { name: /^Acme workspace/ }).click();
    await page.getByRole('heading', { level: 2, name: 'Acme workspace' }).waitFor();
    expect(new URL(page.url()).searchParams.get('resource')).toBe(byName('Acme workspace')?.id);
    await page.getByRole('button', { name: 'Grant a role' }).click();
    const grant = await openedDialog(page, 'Grant a role');
    await pickOption(grant, page, 'Subject', 'Console engineers (Group)');
    await pickOption(grant, page, 'Role', 'Viewer (console-viewer)');
    await grant.getByRole('button', { name: 'Grant', exact: true }).click();
    await grant.waitFor({ state: 'detached' });
    const grants = page.getByRole('grid', { name: 'Grants on this resource' });
    await grants.getByRole('rowheader', { name: 'Console engineers (Group)' }).waitFor();
    await grants.getByText('An operator').waitFor();
    await expectAccessible(page);

    // Every grant, with where the audit log keeps who made each.
    await page.getByRole('tab', { name: 'Grants' }).click();
    const all = page.getByRole('grid', { name: 'Grants' });
    await all
      .getByRole('row')
      .filter({ hasText: 'Console engineers (Group)' })
      .filter({ hasText: 'Acme workspace' })
      .waitFor();
    await page.getByRole('link', { name: 'audit log' }).waitFor();
    await expectAccessible(page);

    // The access tester: reading the document is allowed through the workspace's grant.
    await page.getByRole('tab', { name: 'Access tester' }).click();
    const tester = page.getByRole('region', { name: 'Access tester' });
    await pickOption(tester, page, 'Subject', 'ada-console (User)');
    await pickOption(tester, page, 'Permission', model.read);
    await pickOption(tester, page, 'Resource', 'Spec');
    await tester.getByRole('button', { name: 'Test access' }).click();
    const answer = page.getByRole('status', { name: 'Access test result' });
    await answer.getByText('Allowed').waitFor();
    const path = answer.getByRole('list', { name: 'From the resource up to the grant' });
    expect(await path.getByRole('listitem').allTextContents()).toEqual([
      'Spec (asked about)',
      'Roadmap (parent)',
      'Acme workspace (granted console-viewer here)',
    ]);
    await answer.getByText(/held through the group Console engineers/).waitFor();
    await expectAccessible(page);
    const spec = byName('Spec')?.id ?? '';
    const explained = await svc().fga.explainAsync({
      subject: { type: 'user', id: userId },
      resourceId: spec,
      permissionKey: model.read,
    });
    expect(explained).toMatchObject({
      allowed: true,
      explanation: {
        roleId: model.viewer,
        grantedOnResourceId: byName('Acme workspace')?.id,
        viaGroupId: groupId,
      },
    });
    await answer.getByText(explained.explanation?.grantId ?? 'none', { exact: true }).waitFor();

    // Writing is not in the viewer role: denied, as the check says.
    await pickOption(tester, page, 'Permission', model.write);
    await tester.getByRole('button', { name: 'Test access' }).click();
    await answer.getByText('Denied').waitFor();
    expect(
      await svc().fga.checkAsync({
        subject: { type: 'user', id: userId },
        resourceId: spec,
        permissionKey: model.write,
      }),
    ).toBe(false);
    await expectAccessible(page);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('says calendar connections are off when they are', async () => {
    const page = await console.open('/calendar');
    await page.getByText('Calendar connections are off.').waitFor();
    const status = await operatorApi('/svc/admin/auth/api', () => ({ svc: svc() }))(
      'GET',
      '/calendar/status',
    );
    expect(status.body).toEqual({ enabled: false });
    await expectAccessible(page);
    expect(console.problems).toEqual([]);
    await page.close();
  });
});
