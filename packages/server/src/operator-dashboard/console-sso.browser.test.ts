import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accessibilityProblems,
  startConsole,
  type ConsoleFixture,
  openedDialog,
} from '../test-support/console-browser.js';
import { startDnsServer, type TestDnsServer } from '../test-support/dns-server.js';
import { samlTestKeys } from '../test-support/federation/saml-certificates.js';
import { startSamlPeer, type SamlPeer } from '../test-support/federation/saml-peer.js';
import { uniqueName } from '../test-support/hosted-test-app.js';

/**
 * The console's single sign-on pages in Chromium: an operator sets up a SAML connection from pasted IdP
 * metadata (the samlify peer's, with a real certificate), verifies a domain against a DNS server on
 * loopback, previews where an address signs in, makes a provider connection, and makes and revokes a
 * setup link. Each result is read back through the operator API, and axe checks every page and dialog.
 */
describe('the console: single sign-on', () => {
  let dns: TestDnsServer;
  let console: ConsoleFixture;
  let peer: SamlPeer;

  beforeAll(async () => {
    dns = await startDnsServer();
    console = await startConsole({ dns: { servers: [dns.address], timeoutMs: 1_000 } });
    peer = await startSamlPeer(await samlTestKeys(), console.served.hosted.t.clock);
  });
  afterAll(async () => {
    await peer?.close();
    await console?.close();
    await dns?.close();
  });

  const svc = () => console.served.hosted.t.svc;
  const idInUrl = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  const expectAccessible = async (page: Page) => expect(await accessibilityProblems(page)).toEqual([]);

  async function open(path: string): Promise<Page> {
    const page = await console.open(path);
    page.setDefaultTimeout(10_000);
    return page;
  }

  /**
   * Puts the toasts in the corner away, as an operator would: they lie over the rows' last buttons, and
   * React Aria keeps them while the pointer rests on them.
   */
  async function dismissToasts(page: Page) {
    const dismiss = page.getByRole('button', { name: 'Dismiss' });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
  }

  /** Presses `trigger`, checks that its confirmation says `says`, and confirms. */
  async function confirm(scope: Page | Locator, page: Page, trigger: string, name: string, says: RegExp) {
    await scope.getByRole('button', { name: trigger, exact: true }).click();
    const opened = await openedDialog(page, name);
    await opened.getByText(says).waitFor();
    await opened.getByRole('button', { name: trigger, exact: true }).click();
    await opened.waitFor({ state: 'detached' });
  }

  it('sets up a SAML connection from pasted metadata, verifies a domain and previews where users sign in', async () => {
    const organization = await console.served.hosted.given.organization(uniqueName('Acme'));
    const page = await open(`/organizations/${organization.id}?tab=sso`);
    await page.getByText('No SAML connections.').waitFor();
    await page.getByText('No provider connections of this organization.').waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'New SAML connection' }).click();
    const create = await openedDialog(page, `New SAML connection for ${organization.name}`);
    await create.getByRole('button', { name: 'Create connection' }).click();
    // The contract's schema refuses an empty name before anything is sent, beside the field.
    await create.getByText('Too small').waitFor();
    await create.getByLabel('Name', { exact: true }).fill('Acme Okta');
    await create.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('heading', { level: 1, name: 'Acme Okta' }).waitFor();
    const connectionId = idInUrl(page);
    const draft = await svc().admin.getSsoConnectionAsync(connectionId);
    expect(draft).toMatchObject({ organizationId: organization.id, enabled: false, idpEntityId: null });
    await page.getByText('Draft: no IdP metadata').waitFor();
    expect(await page.getByLabel('SP entity ID', { exact: true }).inputValue()).toBe(draft.spEntityId);
    expect(await page.getByLabel('ACS URL', { exact: true }).inputValue()).toBe(draft.acsUrl);
    await page.getByRole('cell', { name: 'urn:oid:0.9.2342.19200300.100.1.3' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Import metadata' }).click();
    const metadata = await openedDialog(page, 'Import the IdP metadata');
    await metadata.getByLabel('IdP metadata XML').fill('<EntityDescriptor/>');
    await metadata.getByRole('button', { name: 'Import metadata' }).click();
    // The server's refusal, beside the field; Chromium reports the refused call itself.
    await metadata.getByText(/the document is not SAML 2.0 metadata/).waitFor();
    expect(console.problems.splice(0)).toEqual([expect.stringContaining('status of 400 (Bad Request)')]);
    peer.trust(await svc().samlServiceProvider.metadata(connectionId));
    await metadata.getByLabel('IdP metadata XML').fill(peer.metadata());
    await metadata.getByRole('button', { name: 'Import metadata' }).click();
    await metadata.waitFor({ state: 'detached' });
    await page.getByText(peer.entityId, { exact: true }).waitFor();
    await page.getByRole('rowheader', { name: /svc-test-idp-current/ }).waitFor();
    expect(await svc().admin.getSsoConnectionAsync(connectionId)).toMatchObject({
      enabled: true,
      idpEntityId: peer.entityId,
      idpSsoUrl: peer.ssoUrl,
    });
    await page.getByRole('button', { name: 'Try the sign-in' }).click();
    await openedDialog(page, 'Try the sign-in through Acme Okta');
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await expectAccessible(page);

    await page.getByRole('link', { name: '← Single sign-on' }).click();
    await page.getByRole('rowheader', { name: 'Acme Okta' }).waitFor();
    await page.getByRole('tab', { name: 'Domains' }).click();
    await page.getByText('No domain claims.').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Claim a domain' }).click();
    const claim = await openedDialog(page, `Claim a domain for ${organization.name}`);
    const domain = `${uniqueName('acme').toLowerCase()}.test`;
    await claim.getByLabel('Domain', { exact: true }).fill(domain);
    await claim.getByRole('button', { name: 'Claim domain' }).click();
    const recordName = await claim.getByLabel('Record name', { exact: true }).inputValue();
    const recordValue = await claim.getByLabel('Record value', { exact: true }).inputValue();
    expect(recordName).toBe(`_svc-verify.${domain}`);
    await expectAccessible(page);
    await claim.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row').filter({ hasText: domain });
    await dismissToasts(page);
    await row.getByRole('button', { name: 'Verify now' }).click();
    const notice = page.getByRole('alertdialog', { name: `${domain} is not verified yet` });
    await notice.getByText('No TXT record').waitFor();
    dns.setTxt(recordName, [[recordValue]]);
    await dismissToasts(page);
    await row.getByRole('button', { name: 'Verify now' }).click();
    await page.getByText(`${domain} is verified.`).waitFor();
    await row.getByText('Verified', { exact: true }).waitFor();
    const [claimed] = (await svc().admin.listDomainClaimsAsync(organization.id)).data;
    expect(claimed).toMatchObject({ domain, status: 'active', lastCheck: { result: 'verified' } });

    // Where an address of the verified domain signs in: this organization's connection, as the API says.
    await page.getByRole('tab', { name: 'Single sign-on' }).click();
    await page.getByLabel('Email address', { exact: true }).fill(`ada@${domain}`);
    await page.getByRole('button', { name: 'Look up' }).click();
    const answer = page.getByRole('status').filter({ hasText: `ada@${domain}` });
    await answer.getByText(/a SAML connection of this organization/).waitFor();
    await answer.getByRole('link', { name: 'Acme Okta' }).waitFor();
    expect(await svc().auth.discoverAsync({ email: `ada@${domain}` })).toMatchObject({
      mode: 'sso',
      connectionId,
    });
    await page.getByLabel('Email address', { exact: true }).fill('ada@elsewhere.test');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page
      .getByRole('status')
      .getByText(/stays on Svc's own sign-in page/)
      .waitFor();
    await expectAccessible(page);
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('makes a provider connection of the organization (the API refusing a missing secret), maps a claim and disables it', async () => {
    const organization = await console.served.hosted.given.organization(uniqueName('Globex'));
    const page = await open(`/organizations/${organization.id}?tab=sso`);
    await page.getByRole('button', { name: 'New provider connection' }).click();
    const create = await openedDialog(page, `New provider connection for ${organization.name}`);
    await create.getByLabel('Client ID', { exact: true }).fill('globex-google-client');
    await create.getByRole('button', { name: 'Create connection' }).click();
    // The provider type's rule is the server's: its 400 names the field, and the form shows it there.
    await create.getByText('is required for a Google connection').waitFor();
    expect(console.problems.splice(0)).toEqual([expect.stringContaining('status of 400 (Bad Request)')]);
    await create.getByLabel('Client secret', { exact: true }).fill('globex-google-secret');
    await create.getByRole('button', { name: 'Create connection' }).click();
    await page.getByRole('heading', { level: 1, name: 'Google' }).waitFor();
    const connectionId = idInUrl(page);
    const created = await svc().admin.getOidcConnectionAsync(connectionId);
    expect(created).toMatchObject({
      providerType: 'Google',
      organizationId: organization.id,
      enabled: true,
      clientId: 'globex-google-client',
      clientSecretSet: true,
      allowedCallbackUris: [`${console.served.issuer}/oidc/callback`],
    });
    await expectAccessible(page);

    // Its claim mapping: one claim named, the rest the provider's defaults; the secret is kept.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = await openedDialog(page, 'Edit Google');
    await edit.getByText('Claim mapping (optional)').click();
    await edit.getByLabel('Email', { exact: true }).fill('upn');
    await expectAccessible(page);
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await page.getByText('Set for this connection').waitFor();
    expect(await svc().admin.getOidcConnectionAsync(connectionId)).toMatchObject({
      claimMapping: { email: 'upn' },
      clientSecretSet: true,
      resolved: { claimMapping: { email: 'upn', subject: 'sub' } },
    });

    await confirm(page, page, 'Disable', 'Disable Google?', /Its button leaves every sign-in page now/);
    await page.getByRole('button', { name: 'Enable', exact: true }).waitFor();
    expect((await svc().admin.getOidcConnectionAsync(connectionId)).enabled).toBe(false);
    await page.getByRole('link', { name: '← Single sign-on' }).click();
    const row = page.getByRole('row').filter({ hasText: 'globex-google-client' });
    await row.getByText('Disabled', { exact: true }).waitFor();
    expect(console.problems).toEqual([]);
    await page.close();
  });

  it('makes a setup link, shown once, and revokes it', async () => {
    const organization = await console.served.hosted.given.organization(uniqueName('Initech'));
    const page = await open(`/organizations/${organization.id}?tab=setup-links`);
    await page.getByText('No setup links.').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'New setup link' }).click();
    const create = await openedDialog(page, `A setup link for ${organization.name}`);
    await create.getByRole('button', { name: 'Make the link' }).click();
    const shown = await openedDialog(page, 'The setup link');
    const url = await shown.getByLabel('Setup link', { exact: true }).inputValue();
    expect(url).toMatch(new RegExp(`^${console.served.origin}/svc/admin/auth/sso-portal/start\\?token=`));
    await shown.getByRole('button', { name: 'I have copied it' }).click();
    const [link] = (await svc().admin.listSsoPortalLinksAsync(organization.id)).data;
    expect(link).toMatchObject({ status: 'unused' });

    const row = page.getByRole('row').filter({ hasText: 'Not opened yet' });
    await confirm(row, page, 'Revoke', 'Revoke this setup link?', /The link stops working now/);
    await page.locator('.badge', { hasText: 'Revoked' }).waitFor();
    expect((await svc().admin.getSsoPortalLinkAsync(link?.id ?? '')).status).toBe('revoked');
    expect(console.problems).toEqual([]);
    await page.close();
  });
});
