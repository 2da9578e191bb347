import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityProblems, startConsole, type ConsoleFixture } from '../test-support/console-browser.js';
import { HOSTED_PASSWORD, uniqueName } from '../test-support/hosted-test-app.js';
import { readOutbox } from '../test-support/outbox.js';

/**
 * The console's directory in Chromium: an operator runs organizations (facts, settings, MFA policy,
 * members, invitations, deactivation) and users (creation, settings, sessions, consent grants) from
 * their pages, and every change is checked through the API, not only on the page.
 */
describe('the console directory in a browser', () => {
  let console: ConsoleFixture;

  beforeAll(async () => {
    console = await startConsole();
  });
  afterAll(() => console?.close());

  const admin = () => console.served.hosted.t.svc.admin;

  /** The dialog named `name`, once open; axe checks the page with it. */
  async function dialog(page: Page, name: string) {
    const opened = page.getByRole('dialog', { name });
    await opened.waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    return opened;
  }

  /** Confirms the ConfirmButton dialog `name`, after checking that it says `says`. */
  async function confirm(
    page: Page,
    trigger: string,
    name: string,
    says: string | RegExp,
    confirmLabel = trigger,
  ) {
    await page.getByRole('button', { name: trigger, exact: true }).first().click();
    const opened = await dialog(page, name);
    await opened.getByText(says).waitFor();
    await opened.getByRole('button', { name: confirmLabel, exact: true }).click();
    await opened.waitFor({ state: 'detached' });
  }

  /** Turns the switch `name` over (its label takes the click; the input itself is hidden). */
  async function toggle(scope: Page | Locator, name: string) {
    const before = await scope.getByRole('switch', { name }).isChecked();
    await scope.locator('label.switch').filter({ hasText: name }).click();
    await expect.poll(() => scope.getByRole('switch', { name }).isChecked()).toBe(!before);
  }

  it(
    'creates an organization, edits it, sets its MFA policy, adds a member, invites and revokes, deactivates it',
    { timeout: 90_000 },
    async () => {
      const { given, t } = console.served.hosted;
      const member = await given.user();
      const page = await console.open('/organizations');
      page.setDefaultTimeout(8000);
      await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);

      await page.getByRole('button', { name: 'New organization' }).click();
      const create = await dialog(page, 'New organization');
      await create.getByLabel('Slug').fill('Not A Slug');
      await create.getByRole('button', { name: 'Create organization' }).click();
      // The contract's schema refuses both before anything is sent.
      await create.getByText('must be lowercase letters, digits and single hyphens').waitFor();
      const name = uniqueName('Acme');
      await create.getByLabel('Name').fill(name);
      await create.getByLabel('Slug').fill('acme-directory');
      await create.getByLabel('Primary domain').fill('acme.example');
      await create.getByRole('button', { name: 'Create organization' }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
      const organizationId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
      expect(await admin().getOrganizationAsync(organizationId)).toMatchObject({
        name,
        slug: 'acme-directory',
        primaryDomain: 'acme.example',
      });

      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = await dialog(page, `Edit ${name}`);
      await edit.getByLabel('Name').fill(`${name} Corp`);
      await edit.getByLabel('Slug').fill('acme-corp');
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { level: 1, name: `${name} Corp` }).waitFor();
      expect(await admin().getOrganizationAsync(organizationId)).toMatchObject({ slug: 'acme-corp' });

      await page.getByRole('tab', { name: 'MFA policy' }).click();
      await toggle(page, 'This organization has its own MFA policy');
      await toggle(page, 'For owners and admins');
      await page.getByLabel('For these roles').fill('billing');
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save MFA policy' }).click();
      await page.getByText('Saved the MFA policy.').waitFor();
      expect(await admin().getOrganizationMfaPolicyAsync(organizationId)).toMatchObject({
        isEnabled: true,
        requireMfaForOwnersAndAdmins: true,
        requireMfaForAllUsers: false,
        requiredRoles: ['billing'],
      });

      await page.getByRole('tab', { name: 'Members' }).click();
      await page.getByText('No members yet.').waitFor();
      await page.getByRole('button', { name: 'Add member' }).click();
      const add = await dialog(page, `Add a member to ${name} Corp`);
      await add.getByRole('combobox', { name: 'User' }).fill(member.displayName);
      await page.getByRole('option', { name: member.displayName }).click();
      expect(await accessibilityProblems(page)).toEqual([]);
      await add.getByLabel('Role').fill('Admin');
      await add.getByRole('button', { name: 'Add member' }).click();
      await page.getByText(`${member.displayName} is a member, as admin.`).waitFor();
      const memberships = await admin().listOrganizationMembershipsAsync(organizationId);
      expect(memberships.data.map(({ userId, role, active }) => ({ userId, role, active }))).toEqual([
        { userId: member.id, role: 'admin', active: true },
      ]);

      await page.getByRole('tab', { name: 'Invitations' }).click();
      await page.getByRole('button', { name: 'Invite', exact: true }).click();
      const invite = await dialog(page, `Invite someone to ${name} Corp`);
      const invitee = `${uniqueName('invitee')}@example.com`;
      await invite.getByLabel('Email').fill(invitee);
      await invite.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invited ${invitee}.`).waitFor();
      const row = page.getByRole('row').filter({ hasText: invitee });
      await row.getByText('Pending').waitFor();
      const invitations = await t.svc.invitations.listEmailInvitations(organizationId, { limit: 50 });
      expect(invitations.data.map(({ email, role, status }) => ({ email, role, status }))).toEqual([
        { email: invitee, role: 'member', status: 'pending' },
      ]);
      const [mail] = await readOutbox(t.svc.email, { to: invitee });
      expect(mail?.textBody).toContain('/invitations/accept?token=');
      await confirm(page, 'Revoke', `Revoke the invitation of ${invitee}?`, 'Its link stops working now');
      await row.getByText('Revoked').waitFor();
      expect((await t.svc.invitations.getEmailInvitation(invitations.data[0]?.id ?? '')).status).toBe(
        'revoked',
      );

      await confirm(
        page,
        'Deactivate',
        `Deactivate ${name} Corp?`,
        /Every session in this organization ends now, for all its members/,
      );
      await page.getByText('Deactivated: its members cannot sign in to it.').waitFor();
      expect((await admin().getOrganizationAsync(organizationId)).active).toBe(false);
      await confirm(
        page,
        'Reactivate',
        `Reactivate ${name} Corp?`,
        'Its active members can sign in to it again.',
      );
      await page.getByRole('button', { name: 'Deactivate', exact: true }).waitFor();
      expect((await admin().getOrganizationAsync(organizationId)).active).toBe(true);

      await page.goto(`${console.served.origin}/svc/organizations?q=${encodeURIComponent(name)}`);
      await page.getByRole('rowheader', { name: `${name} Corp` }).click();
      await page.getByRole('heading', { level: 1, name: `${name} Corp` }).waitFor();
      expect(console.problems).toEqual([]);
      await page.close();
    },
  );

  it(
    'creates users with and without a password, edits one, deactivates it, and revokes a session and a consent grant',
    { timeout: 90_000 },
    async () => {
      const { given, t, inject } = console.served.hosted;
      const page = await console.open('/users');
      page.setDefaultTimeout(8000);
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();

      await page.getByRole('button', { name: 'New user' }).click();
      const withoutPassword = await dialog(page, 'New user');
      const quiet = uniqueName('Quiet');
      const quietEmail = `${quiet.toLowerCase()}@example.com`;
      await withoutPassword.getByLabel('Name').fill(quiet);
      await withoutPassword.getByLabel('Email').fill(quietEmail);
      await withoutPassword.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('heading', { level: 1, name: quiet }).waitFor();
      const quietId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
      expect(await admin().getUserAsync(quietId)).toMatchObject({ email: quietEmail, hasPassword: false });
      expect(await accessibilityProblems(page)).toEqual([]);

      await page.getByRole('link', { name: '← Users' }).click();
      await page.getByRole('button', { name: 'New user' }).click();
      const withPassword = await dialog(page, 'New user');
      const loud = uniqueName('Loud');
      await withPassword.getByLabel('Name').fill(loud);
      await withPassword.getByLabel('Email').fill(`${loud.toLowerCase()}@example.com`);
      await toggle(withPassword, 'Set a password');
      await withPassword.getByRole('textbox', { name: 'Password' }).fill('short');
      await withPassword.getByRole('button', { name: 'Create user' }).click();
      await withPassword.getByText('Too small').waitFor();
      await withPassword.getByRole('textbox', { name: 'Password' }).fill(HOSTED_PASSWORD);
      await withPassword.getByRole('button', { name: 'Create user' }).click();
      await page.getByRole('heading', { level: 1, name: loud }).waitFor();
      const loudId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
      expect(await admin().getUserAsync(loudId)).toMatchObject({ hasPassword: true });

      await page.getByRole('button', { name: 'Edit', exact: true }).click();
      const edit = await dialog(page, `Edit ${loud}`);
      await edit.getByLabel('Name').fill(`${loud} Renamed`);
      await edit.getByLabel('Email').fill(`renamed-${loud.toLowerCase()}@example.com`);
      await edit.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('heading', { level: 1, name: `${loud} Renamed` }).waitFor();
      expect(await admin().getUserAsync(loudId)).toMatchObject({
        displayName: `${loud} Renamed`,
        email: `renamed-${loud.toLowerCase()}@example.com`,
        emailVerified: false,
      });
      await confirm(page, 'Deactivate', `Deactivate ${loud} Renamed?`, /Every session of .* ends now/);
      await page.getByText('Deactivated: they cannot sign in.').waitFor();
      expect((await admin().getUserAsync(loudId)).active).toBe(false);

      // A user with a session and a consent grant, revoked from their page.
      const user = await given.user();
      const app = await given.client({ name: uniqueName('Directory App') });
      const login = await inject({
        method: 'POST',
        url: '/svc/auth/password/login',
        payload: { email: user.email, password: HOSTED_PASSWORD, clientId: app.clientId },
      });
      expect(login.statusCode, login.body).toBe(200);
      await t.svc.authEngine.consents.record(user.id, app.clientId, ['openid', 'profile']);
      await page.goto(`${console.served.origin}/svc/users/${user.id}?tab=sessions`);
      const session = page.getByRole('row').filter({ hasText: app.clientId });
      await session.getByText('Active', { exact: true }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await session.getByRole('button', { name: 'Revoke' }).click();
      const revoke = await dialog(page, 'Revoke this session?');
      await revoke.getByText('This ends 1 session').waitFor();
      await revoke.getByRole('button', { name: 'Revoke' }).click();
      await session.getByText('Revoked', { exact: true }).waitFor();
      const sessions = await admin().listSessionsAsync({ userId: user.id });
      expect(sessions.data.map(({ active }) => active)).toEqual([false]);

      await page.getByRole('tab', { name: 'Consent grants' }).click();
      await page.getByRole('rowheader', { name: app.name }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await confirm(page, 'Revoke', `Revoke the consent to ${app.name}?`, /asked again whether to allow it/);
      await page.getByText('No consent grants.').waitFor();
      expect((await admin().listUserGrantsAsync(user.id)).data).toEqual([]);

      await page.getByRole('tab', { name: 'Linked identities' }).click();
      await page.getByText('No linked identities.').waitFor();
      await page.getByRole('tab', { name: 'Memberships' }).click();
      await page.getByText('No memberships.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      expect(console.problems).toEqual([]);
      await page.close();
    },
  );
});
