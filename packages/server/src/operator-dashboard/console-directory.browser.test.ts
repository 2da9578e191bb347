import type { SvcUser } from '@svc/contract';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityProblems,
  startConsole,
  type ConsoleFixture,
  openedDialog,
} from '../test-support/console-browser.js';
import { HOSTED_PASSWORD, uniqueName } from '../test-support/hosted-test-app.js';
import { readOutbox } from '../test-support/outbox.js';

/**
 * The console's directory in Chromium: an operator runs organizations (settings, MFA policy, members,
 * invitations, deactivation) and users (creation, sign-in settings, sessions, consent grants) from their
 * pages; every change is checked through the API, and axe checks every page and dialog on the way.
 */
describe('the console directory in a browser', () => {
  let console: ConsoleFixture;

  beforeAll(async () => {
    console = await startConsole();
  });
  afterAll(() => console?.close());

  const admin = () => console.served.hosted.t.svc.admin;
  const idInUrl = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');

  async function open(path: string): Promise<Page> {
    const page = await console.open(path);
    // An action that cannot happen fails with its locator, well before the test's own timeout.
    page.setDefaultTimeout(10_000);
    return page;
  }

  /** Presses `trigger`, checks that its confirmation `name` says `says`, and confirms. */
  async function confirm(page: Page, trigger: string, name: string, says: string | RegExp) {
    await page.getByRole('button', { name: trigger, exact: true }).first().click();
    const opened = await openedDialog(page, name);
    await opened.getByText(says).waitFor();
    await opened.getByRole('button', { name: trigger, exact: true }).click();
    await opened.waitFor({ state: 'detached' });
  }

  /** Turns the switch `name` over (its label takes the click; the input itself is hidden). */
  async function toggle(scope: Page | Locator, name: string) {
    const before = await scope.getByRole('switch', { name }).isChecked();
    await scope.locator('label.switch').filter({ hasText: name }).click();
    await expect.poll(() => scope.getByRole('switch', { name }).isChecked()).toBe(!before);
  }

  it('creates an organization, edits it and sets its MFA policy', async () => {
    const page = await open('/organizations');
    await page.getByRole('heading', { level: 1, name: 'Organizations' }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('button', { name: 'New organization' }).click();
    const create = await openedDialog(page, 'New organization');
    await create.getByLabel('Slug').fill('Not A Slug');
    await create.getByRole('button', { name: 'Create organization' }).click();
    // The contract's schema refuses it before anything is sent, beside the field.
    await create.getByText('must be lowercase letters, digits and single hyphens').waitFor();
    const name = uniqueName('Acme');
    await create.getByLabel('Name').fill(name);
    await create.getByLabel('Slug').fill('acme-directory');
    await create.getByLabel('Primary domain').fill('acme.example');
    await create.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    expect(await admin().getOrganizationAsync(idInUrl(page))).toMatchObject({
      name,
      slug: 'acme-directory',
      primaryDomain: 'acme.example',
    });

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = await openedDialog(page, `Edit ${name}`);
    await edit.getByLabel('Name').fill(`${name} Corp`);
    await edit.getByLabel('Slug').fill('acme-corp');
    await edit.getByLabel('Primary domain').fill('acme-corp.example');
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: `${name} Corp` }).waitFor();
    const organization = await admin().getOrganizationAsync(idInUrl(page));
    expect(organization).toMatchObject({ slug: 'acme-corp', primaryDomain: 'acme-corp.example' });

    await page.getByRole('tab', { name: 'MFA policy' }).click();
    await toggle(page, 'This organization has its own MFA policy');
    await toggle(page, 'For owners and admins');
    await page.getByLabel('For these roles').fill('Billing');
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save MFA policy' }).click();
    await page.getByText('Saved the MFA policy.').waitFor();
    expect(new URL(page.url()).searchParams.get('tab')).toBe('mfa');
    expect(await admin().getOrganizationMfaPolicyAsync(organization.id)).toMatchObject({
      isEnabled: true,
      requireMfaForOwnersAndAdmins: true,
      requireMfaForAllUsers: false,
      requiredRoles: ['billing'],
    });
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('adds a member through the user picker and changes the role; the users list filters by it', async () => {
    const { given } = console.served.hosted;
    const member = await given.user();
    const organization = await given.organization(uniqueName('Globex'));
    const page = await open(`/organizations/${organization.id}`);
    await page.getByText('No members yet.').waitFor();
    await page.getByRole('button', { name: 'Add member' }).click();
    const add = await openedDialog(page, `Add a member to ${organization.name}`);
    // The picker by keyboard: type, wait for the server's match, arrow to it, Enter.
    const picker = add.getByRole('combobox', { name: 'User' });
    await picker.fill(member.displayName);
    await page.getByRole('option', { name: member.displayName }).waitFor();
    // Only the server's answer to the whole name is offered, never an earlier query's users.
    expect(await page.getByRole('option').allTextContents()).toEqual([
      expect.stringContaining(member.displayName),
    ]);
    // React Aria portals every popover to the end of the body, outside the landmarks: only that rule.
    const listed = (await accessibilityProblems(page)).filter((problem) => !problem.startsWith('region:'));
    expect(listed).toEqual([]);
    await picker.press('ArrowDown');
    await picker.press('Enter');
    const picked = `${member.displayName} <${member.email}>`;
    await expect.poll(() => picker.inputValue()).toBe(picked);
    await add.getByLabel('Role').fill('Admin');
    await add.getByRole('button', { name: 'Add member' }).click();
    await page.getByText(`${picked} is a member, as admin.`).waitFor();
    await page.getByRole('rowheader', { name: member.displayName }).waitFor();
    const memberships = await admin().listOrganizationMembershipsAsync(organization.id);
    expect(memberships.data.map(({ userId, role, active }) => ({ userId, role, active }))).toEqual([
      { userId: member.id, role: 'admin', active: true },
    ]);
    await page.getByRole('button', { name: 'Change role' }).click();
    const change = await openedDialog(page, 'Change the role');
    await change.getByLabel('Role').fill('owner');
    await change.getByRole('button', { name: 'Change role' }).click();
    await page.getByText('The role is owner now.').waitFor();
    expect((await admin().getMembershipAsync(memberships.data[0]?.id ?? '')).role).toBe('owner');

    // The users list filtered by the organization, chosen in its picker, shows its member only.
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('combobox', { name: 'Organization' }).fill(organization.name);
    await page.getByRole('option', { name: organization.name }).click();
    await page.waitForURL((url) => url.searchParams.get('organizationId') === organization.id);
    await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual([member.displayName]);
    expect(await accessibilityProblems(page)).toEqual([]);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('invites someone and revokes the invitation, deactivates and reactivates the organization', async () => {
    const { given, t } = console.served.hosted;
    const organization = await given.organization(uniqueName('Initech'));
    const page = await open(`/organizations/${organization.id}`);
    await page.getByRole('tab', { name: 'Invitations' }).click();
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const invite = await openedDialog(page, `Invite someone to ${organization.name}`);
    const invitee = `${uniqueName('invitee')}@example.com`;
    await invite.getByLabel('Email').fill(invitee);
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    const row = page.getByRole('row').filter({ hasText: invitee });
    await row.getByText('Pending').waitFor();
    const [invitation] = (await t.svc.invitations.listEmailInvitations(organization.id, { limit: 50 })).data;
    expect(invitation).toMatchObject({ email: invitee, role: 'member', status: 'pending' });
    const [mail] = await readOutbox(t.svc.email, { to: invitee });
    expect(mail?.textBody).toContain('/invitations/accept?token=');
    // When it was sent, from the list's own answer.
    expect(invitation?.createdAt).toEqual(expect.any(String));
    await row.locator(`time[datetime="${invitation?.createdAt ?? ''}"]`).waitFor();
    await confirm(page, 'Revoke', `Revoke the invitation of ${invitee}?`, 'Its link stops working now');
    await row.getByText('Revoked').waitFor();
    expect((await t.svc.invitations.getEmailInvitation(invitation?.id ?? '')).status).toBe('revoked');

    // The status filter is in the link; the server filters.
    const status = async (label: string) => {
      await page
        .getByRole('tabpanel')
        .getByRole('button', { name: /Status/ })
        .click();
      await page.getByRole('option', { name: label, exact: true }).click();
    };
    await status('Pending');
    await page.getByText('No pending invitations.').waitFor();
    expect(new URL(page.url()).searchParams.get('invitationStatus')).toBe('pending');
    expect(await accessibilityProblems(page)).toEqual([]);
    await status('Revoked');
    await page.waitForURL((url) => url.searchParams.get('invitationStatus') === 'revoked');
    await row.getByText('Revoked').waitFor();

    await confirm(
      page,
      'Deactivate',
      `Deactivate ${organization.name}?`,
      /Every session in this organization ends now, for all its members/,
    );
    await page.getByText('Deactivated: its members cannot sign in to it.').waitFor();
    expect((await admin().getOrganizationAsync(organization.id)).active).toBe(false);
    await confirm(page, 'Reactivate', `Reactivate ${organization.name}?`, 'Its active members can sign in');
    await page.getByRole('button', { name: 'Deactivate', exact: true }).waitFor();
    expect((await admin().getOrganizationAsync(organization.id)).active).toBe(true);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('creates users with and without a password and edits one', async () => {
    const page = await open('/users');
    await page.getByRole('button', { name: 'New user' }).click();
    const withoutPassword = await openedDialog(page, 'New user');
    const quiet = uniqueName('Quiet');
    await withoutPassword.getByLabel('Name').fill(quiet);
    await withoutPassword.getByLabel('Email').fill(`${quiet.toLowerCase()}@example.com`);
    await withoutPassword.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('heading', { level: 1, name: quiet }).waitFor();
    expect(await admin().getUserAsync(idInUrl(page))).toMatchObject({ hasPassword: false });
    expect(await accessibilityProblems(page)).toEqual([]);

    await page.getByRole('link', { name: '← Users' }).click();
    await page.getByRole('button', { name: 'New user' }).click();
    const withPassword = await openedDialog(page, 'New user', true);
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
    const id = idInUrl(page);
    expect(await admin().getUserAsync(id)).toMatchObject({ hasPassword: true });

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = await openedDialog(page, `Edit ${loud}`);
    const renamed = `renamed-${loud.toLowerCase()}@example.com`;
    await edit.getByLabel('Name').fill(`${loud} R`);
    await edit.getByLabel('Email').fill(renamed);
    await edit.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { level: 1, name: `${loud} R` }).waitFor();
    const expected: Partial<SvcUser> = { displayName: `${loud} R`, email: renamed, emailVerified: false };
    expect(await admin().getUserAsync(id)).toMatchObject(expected);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('verifies an email, makes an operator, sends a password reset and deactivates the user', async () => {
    const { given, t } = console.served.hosted;
    const user = await given.user();
    const page = await open(`/users/${user.id}?tab=mfa`);
    await page.getByText('No second factor.').waitFor();
    const { id, displayName, email } = user;

    await confirm(page, 'Mark verified', `Mark ${email} as verified?`, /treats the address as proved/);
    await page.getByRole('button', { name: 'Mark verified' }).waitFor({ state: 'detached' });
    expect((await admin().getUserAsync(id)).emailVerified).toBe(true);
    await confirm(page, 'Make operator', `Make ${displayName} an operator?`, /sign in to this console/);
    await page.getByRole('button', { name: 'Remove operator' }).waitFor();
    expect((await admin().getUserAsync(id)).isOperator).toBe(true);
    await page.getByRole('button', { name: 'Send reset email' }).click();
    await page.getByText(`The reset email to ${email} is in the email outbox`).waitFor();
    const [reset] = await readOutbox(t.svc.email, { to: email });
    expect(reset?.templateKey).toBe('auth.password-reset');

    await confirm(page, 'Deactivate', `Deactivate ${displayName}?`, /Every session of .* ends now/);
    await page.getByText('Deactivated: they cannot sign in.').waitFor();
    expect((await admin().getUserAsync(id)).active).toBe(false);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it("revokes a session and a consent grant from the user's page", async () => {
    const { given, t, inject } = console.served.hosted;
    const user = await given.user();
    const app = await given.client({ name: uniqueName('Directory App') });
    const login = await inject({
      method: 'POST',
      url: '/svc/auth/password/login',
      payload: { email: user.email, password: HOSTED_PASSWORD, clientId: app.clientId },
    });
    expect(login.statusCode, login.body).toBe(200);
    await t.svc.authEngine.consents.record(user.id, app.clientId, ['openid', 'profile']);
    // An identity linked through a GitHub connection, as a sign-in there links one.
    const github = await admin().createOidcConnectionAsync({
      providerType: 'GitHub',
      displayName: uniqueName('GitHub'),
      clientId: 'gh-client',
      clientSecret: 'gh-secret',
      allowedCallbackUris: ['https://id.example.com/svc/auth/oidc/callback'],
    });
    await t.svc.database.db
      .insertInto('oidcIdentities')
      .values({
        id: `oid_${user.id}`,
        connectionId: github.id,
        subject: '4242',
        userId: user.id,
        email: 'octo@example.com',
        emailVerified: 1,
        createdAt: t.clock.now(),
        lastUsedAt: t.clock.now(),
      })
      .execute();

    const page = await open(`/users/${user.id}?tab=sessions`);
    const session = page.getByRole('row').filter({ hasText: app.name });
    await session.getByText('Active', { exact: true }).waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await session.getByRole('button', { name: 'Revoke' }).click();
    const revoke = await openedDialog(page, 'Revoke this session?');
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
    const identity = page.getByRole('rowheader', { name: github.displayName });
    await identity.getByText('Social: GitHub').waitFor();
    expect(await accessibilityProblems(page)).toEqual([]);
    await confirm(
      page,
      'Unlink',
      'Unlink this identity?',
      `through ${github.displayName} as octo@example.com`,
    );
    await page.getByText('No linked identities.').waitFor();
    expect((await admin().listUserIdentitiesAsync(user.id)).data).toEqual([]);
    expect(console.problems).toEqual([]);
    await page.close();
  });
});
