import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from '../../test-support/browser.js';
import { heading } from '../../test-support/browser-flow.js';
import { startDnsServer, type TestDnsServer } from '../../test-support/dns-server.js';
import {
  startHttpsServer,
  tlsTestCertificate,
  TLS_TEST_HOSTS,
  type HttpsTestServer,
} from '../../test-support/federation/https-server.js';
import { samlTestKeys } from '../../test-support/federation/saml-certificates.js';
import { startSamlPeer, type SamlPeer } from '../../test-support/federation/saml-peer.js';
import { serveHostedApp, type ServedHostedApp } from '../../test-support/served-hosted-app.js';

/** Where the portal's screenshots go, one per state, to look at (test-results/ is not committed). */
const SCREENSHOTS = join(dirname(fileURLToPath(import.meta.url)), '../../../test-results/sso-portal');

/**
 * The SSO setup portal end to end in Debian Chromium without JavaScript: a customer's admin opens the
 * setup link, adds a SAML connection, uploads the IdP's metadata file, replaces it from the metadata's
 * URL (an HTTPS server on loopback that Svc may reach in this test), claims and verifies a domain, runs
 * a test sign-in against the samlify IdP peer and disables the connection, every step a form post
 * redirected back to the page.
 */
describe('the SSO setup portal in a browser', () => {
  let served: ServedHostedApp;
  let dns: TestDnsServer;
  let peer: SamlPeer;
  let metadataServer: HttpsTestServer;
  let browser: TestBrowser;
  let page: Page;

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    dns = await startDnsServer();
    const certificate = await tlsTestCertificate();
    served = await serveHostedApp({
      dns: { servers: [dns.address], timeoutMs: 1_000 },
      ssoMetadataFetch: {
        allowedPrivateNetworks: ['127.0.0.1/32'],
        caCertificates: [certificate.certificate],
      },
    });
    peer = await startSamlPeer(await samlTestKeys(), served.hosted.t.clock);
    metadataServer = await startHttpsServer(certificate);
    metadataServer.serve((_request, response) => response.end(peer.metadata()));
    dns.setAddresses(TLS_TEST_HOSTS[0], ['127.0.0.1']);
    browser = await launchBrowser({ javaScriptEnabled: false });
    page = await browser.context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await peer?.close();
    await metadataServer?.close();
    await served?.close();
    await dns?.close();
  });

  it('takes a customer from the setup link to a tested, enabled connection and a verified domain', async () => {
    const { svc } = served.hosted.t;
    const organization = await svc.admin.createOrganizationAsync({ name: 'Acme Corporation' });
    const link = await svc.admin.createSsoPortalLinkAsync(organization.id);
    const portalLink = new URL(link.url);
    await page.goto(`${served.origin}${portalLink.pathname}${portalLink.search}`);
    await heading(page, 'Set up single sign-on for Acme Corporation');
    await shot('1-empty');

    await page.getByLabel('Connection name').fill('Acme Okta');
    await page.getByRole('button', { name: 'Add a SAML connection' }).click();
    await page.getByText('The connection was added.').waitFor();
    expect(await page.locator('.badge').first().textContent()).toContain(
      'Waiting for your identity provider',
    );
    const [connection] = (await svc.admin.listSsoConnectionsAsync(organization.id)).data;
    if (connection === undefined) throw new Error('no connection was created');
    expect(await page.locator('code.copy').allTextContents()).toEqual(
      expect.arrayContaining([connection.spEntityId, connection.acsUrl]),
    );
    await shot('2-draft');

    peer.trust(await svc.samlServiceProvider.metadata(connection.id));
    await page.locator('input[type="file"]').setInputFiles({
      name: 'idp-metadata.xml',
      mimeType: 'text/xml',
      buffer: Buffer.from(peer.metadata(), 'utf8'),
    });
    await page.getByRole('button', { name: 'Save metadata' }).click();
    await page.getByText('The metadata was saved and the connection is enabled.').waitFor();
    expect(await page.locator('.badge-ok').first().textContent()).toBe('Enabled');
    await shot('3-enabled');

    const metadataUrl = `https://${TLS_TEST_HOSTS[0]}:${metadataServer.port}/federationmetadata.xml`;
    await page.getByLabel('https URL of the metadata').fill(metadataUrl);
    await shot('3b-metadata-url');
    await page.getByRole('button', { name: 'Replace metadata' }).click();
    await page.getByText('The metadata was saved and the connection is enabled.').waitFor();
    expect(metadataServer.requests).toEqual(['GET /federationmetadata.xml']);

    await page.getByLabel('Email domain', { exact: true }).fill('acme-portal.test');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('Waiting for the DNS record').waitFor();
    const [claim] = (await svc.admin.listDomainClaimsAsync(organization.id)).data;
    if (claim === undefined) throw new Error('no claim was started');
    expect(await page.locator('code.copy').allTextContents()).toEqual(
      expect.arrayContaining([claim.record.name, claim.record.value]),
    );
    await shot('4-domain-pending');
    dns.setTxt(claim.record.name, [[claim.record.value]]);
    await page.getByRole('button', { name: 'Check now' }).click();
    await page.getByText('Verified', { exact: true }).waitFor();
    await shot('5-domain-verified');

    // The browser goes to the peer, whose page posts its answer to the ACS route; that hands it to the
    // portal-test handler and sends the browser back to the portal.
    peer.awaitBrowser({
      email: 'ada@acme-portal.test',
      attributes: { email: ['ada@acme-portal.test'], firstName: ['Ada'], groups: ['admins'] },
    });
    await page.getByRole('button', { name: 'Test sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Test sign-in worked').waitFor();
    expect(await page.locator('#test-result').textContent()).toContain('ada@acme-portal.test');
    await shot('6-test-result');

    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('The connection is disabled').waitFor();
    expect((await svc.admin.getSsoConnectionAsync(connection.id)).enabled).toBe(false);
    await shot('7-disabled');
  });

  it('shows a finished page for a used link', async () => {
    const { svc } = served.hosted.t;
    const organization = await svc.admin.createOrganizationAsync({ name: 'Globex' });
    const link = new URL((await svc.admin.createSsoPortalLinkAsync(organization.id)).url);
    const first = await browser.context.newPage();
    await first.goto(`${served.origin}${link.pathname}${link.search}`);
    await first.goto(`${served.origin}${link.pathname}${link.search}`);
    await heading(first, 'This setup link cannot be used');
    await first.screenshot({ path: join(SCREENSHOTS, '8-link-used.png'), fullPage: true });
    await first.close();
  });
});
