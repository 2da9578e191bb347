import type { SvcCreatedClient, SvcHeadlessActionResult, SvcSsoConnection } from '@svc/contract';
import { expect, it } from 'vitest';
import { describeAboveStorage } from '../../test-support/databases.js';
import { samlTestKeys } from '../../test-support/federation/saml-certificates.js';
import { samlBrowserFlow, type SamlBrowserFlow } from '../../test-support/federation/saml-browser.js';
import { startSamlPeer, type SamlPeer } from '../../test-support/federation/saml-peer.js';
import {
  givenActiveDomainClaim,
  givenSsoConnection,
  postToAcs,
  useSamlSuite,
  type SsoConnectionSettings,
} from '../../test-support/federation/sso-connections.js';
import {
  expectBackInAppUi,
  HeadlessBrowser,
  headlessStartBody,
} from '../../test-support/headless-browser.js';
import { createHostedTestApp, uniqueName, type HostedTestApp } from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';
import { organizationMfaPolicy } from '../../test-support/mfa.js';

const NO_LONGER_VALID = 'This sign-in is no longer valid';

/**
 * SAML sign-in through the engine, with samlify as the IdP on loopback: home-realm discovery at the
 * identify step sends an SSO domain to the IdP; its answer is posted cross-site to the ACS (no cookies),
 * which sends the browser on to /saml/continue, where the request continues in its own browser only.
 */
describeAboveStorage('SAML sign-in on the hosted pages and the headless API', (kind) => {
  let h: HostedTestApp;
  let peer: SamlPeer;
  let web: SvcCreatedClient;

  let flow: SamlBrowserFlow;

  useSamlSuite(kind, (suite) => {
    ({ h, peer, web } = suite);
    flow = samlBrowserFlow(h, peer, web.clientId);
  });

  /**
   * An enabled connection of a new organization, for a domain of its own that the organization holds an
   * active claim on unless `claimed` is false.
   */
  async function connectionFor(
    settings: SsoConnectionSettings = {},
    claimed = true,
  ): Promise<SvcSsoConnection & { domain: string }> {
    const domain = `${uniqueName('corp').toLowerCase()}.test`;
    const connection = await givenSsoConnection(h.t, peer, undefined, { primaryDomain: domain, ...settings });
    if (claimed) await givenActiveDomainClaim(h.t, connection.organizationId, domain);
    return { ...connection, domain };
  }

  it('an SSO domain goes from the identify step to the IdP; the answer provisions the account and reaches the client, with the same sub every time', async () => {
    const connection = await connectionFor();
    const email = `ada@${connection.domain}`;
    const { b, continueUrl, claims } = await flow.signInThroughIdp(email);
    expect(claims.amr).toEqual(['fed']);
    const user = await h.t.svc.admin.getUserAsync(String(claims.sub));
    // Provisioned only under the organization's claim on the domain, which vouches for the address.
    expect(user).toMatchObject({ email, emailVerified: true });
    expect(await h.t.svc.admin.userHasMembershipAsync(String(claims.sub), connection.organizationId)).toBe(
      true,
    );
    expect(b.cookies.has('svc_session')).toBe(true);
    const [completed] = (await h.auditEvents('saml.sign_in.completed')).filter(
      (e) => e.userId === claims.sub,
    );
    expect(completed).toMatchObject({ clientId: web.clientId, organizationId: connection.organizationId });

    // The handle again (reload, replay): nothing waits for it.
    const replay = await b.get(continueUrl.href);
    expect(replay.statusCode).toBe(400);
    expect(replay.body).toContain(NO_LONGER_VALID);

    const again = await flow.signInThroughIdp(email);
    expect(again.claims.sub).toBe(claims.sub);
  });

  it('the same IdP answer posted twice is refused the second time', async () => {
    const connection = await connectionFor();
    const { post, acs } = await flow.throughIdp(`grace@${connection.domain}`);
    expect(acs.statusCode).toBe(303);
    const replay = await postToAcs(h, peer, post);
    expect(replay.statusCode).toBe(400);
    expect(replay.headers['content-type']).toContain('text/html');
    expect(replay.body).toContain('already used');
    const refused = await h.auditEvents('saml.response.refused');
    expect(refused.map((event) => JSON.parse(event.dataJson) as unknown)).toContainEqual({
      connectionId: connection.id,
      error: 'replayed_assertion',
    });
  });

  it('an accepted answer carried to another browser continues nothing there and signs nobody in', async () => {
    const connection = await connectionFor();
    const email = `mallory.target@${connection.domain}`;
    const { acs } = await flow.throughIdp(email);
    const attacker = new InjectBrowser(h);
    const elsewhere = await attacker.get(InjectBrowser.location(acs).href);
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).toContain(NO_LONGER_VALID);
    expect(attacker.cookies.has('svc_session')).toBe(false);
    const users = await h.t.svc.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(users).toEqual([]);
  });

  it('binds an existing account by email only when the organization holds an active claim on its domain', async () => {
    const connection = await connectionFor({ autoLinkByEmail: true }, false);
    const existing = await h.given.user(`lin@${connection.domain}`);

    const unclaimed = await flow.refusedAtContinue(existing.email);
    expect(unclaimed.body).toContain('already exists and is not linked to this single sign-on');
    const [refusal] = await h.auditEvents('saml.sign_in.refused');
    expect(refusal).toBeDefined();

    await givenActiveDomainClaim(h.t, connection.organizationId, connection.domain);
    const { claims } = await flow.signInThroughIdp(existing.email);
    expect(claims.sub).toBe(existing.id);
    expect(await h.t.svc.admin.userHasMembershipAsync(existing.id, connection.organizationId)).toBe(true);
  });

  it('never binds an existing account when the connection does not link by email, claim or not', async () => {
    const connection = await connectionFor({ autoLinkByEmail: false });
    const existing = await h.given.user(`nolink@${connection.domain}`);
    const page = await flow.refusedAtContinue(existing.email);
    expect(page.body).toContain('already exists and is not linked');
  });

  it('a connection that provisions no accounts refuses an unknown address, saying what to do', async () => {
    const connection = await connectionFor({ autoProvisionUsers: false });
    const page = await flow.refusedAtContinue(`nobody@${connection.domain}`);
    expect(page.body).toContain('Ask your organization&#39;s administrator to create your account');
  });

  it("a domain claimed by the organization goes to its connection, even without a primary domain; the claimed address's account is verified", async () => {
    const connection = await connectionFor({ primaryDomain: null });
    const domain = `${uniqueName('claimed').toLowerCase()}.test`;
    await givenActiveDomainClaim(h.t, connection.organizationId, domain);
    expect(await h.t.svc.auth.discoverAsync({ email: `x@${domain}` })).toEqual({
      mode: 'sso',
      organizationId: connection.organizationId,
      organizationName: expect.any(String) as string,
      primaryDomain: null,
      connectionId: connection.id,
    });
    const { claims } = await flow.signInThroughIdp(`claimed.user@${domain}`);
    expect(await h.t.svc.admin.getUserAsync(String(claims.sub))).toMatchObject({ emailVerified: true });
  });

  it("an organization's active claim on a domain wins over another organization's primary domain", async () => {
    const typed = await connectionFor({}, false);
    const owner = await connectionFor({ primaryDomain: null });
    await givenActiveDomainClaim(h.t, owner.organizationId, typed.domain);
    const realm = await h.t.svc.auth.discoverAsync({ email: `someone@${typed.domain}` });
    expect(realm).toMatchObject({
      mode: 'sso',
      connectionId: owner.id,
      organizationId: owner.organizationId,
    });

    // A claimed domain whose organization has no enabled connection signs in with a password.
    await h.t.svc.admin.disableSsoConnectionAsync(owner.id);
    expect(await h.t.svc.auth.discoverAsync({ email: `someone@${typed.domain}` })).toEqual({
      mode: 'password',
    });
    await expect(h.t.svc.auth.discoverAsync({ email: 'not an address' })).rejects.toMatchObject({
      status: 400,
    });
  });

  it("an organization's own primary domain takes its users to its connection, after a connection's primary domain", async () => {
    const domain = `${uniqueName('orgdomain').toLowerCase()}.test`;
    const owner = await givenSsoConnection(h.t, peer, undefined, { primaryDomain: null }, domain);
    expect(await h.t.svc.auth.discoverAsync({ email: `ann@${domain.toUpperCase()}` })).toMatchObject({
      mode: 'sso',
      connectionId: owner.id,
      organizationId: owner.organizationId,
      primaryDomain: domain,
    });
    const named = await connectionFor({ primaryDomain: domain }, false);
    expect(await h.t.svc.auth.discoverAsync({ email: `ann@${domain}` })).toMatchObject({
      connectionId: named.id,
    });
    await h.t.svc.admin.disableSsoConnectionAsync(named.id);

    // A primary domain routes; only the organization's claim on it lets the connection create accounts.
    await givenActiveDomainClaim(h.t, owner.organizationId, domain);
    // The IdP answers the connection it was given last: the owner's again.
    peer.trust(await h.t.svc.samlServiceProvider.metadata(owner.id));
    const { claims } = await flow.signInThroughIdp(`ann@${domain}`);
    expect(await h.t.svc.admin.userHasMembershipAsync(String(claims.sub), owner.organizationId)).toBe(true);
    await h.t.svc.admin.disableSsoConnectionAsync(owner.id);
    expect(await h.t.svc.auth.discoverAsync({ email: `ann@${domain}` })).toEqual({ mode: 'password' });
  });

  it('a disabled connection or an inactive organization has no realm: the password step; their answers are refused', async () => {
    const disabled = await connectionFor();
    const pending = await flow.throughIdp(`late@${disabled.domain}`);
    await h.t.svc.admin.disableSsoConnectionAsync(disabled.id);
    expect((await postToAcs(h, peer, pending.post)).statusCode).toBe(400);
    const toPassword = await flow.identify(`late@${disabled.domain}`);
    expect(InjectBrowser.location(toPassword.identified).pathname).toBe(`${h.authBase}/login`);
    expect(await h.t.svc.auth.discoverAsync({ email: `late@${disabled.domain}` })).toEqual({
      mode: 'password',
    });

    const inactive = await connectionFor();
    const { b, acs } = await flow.throughIdp(`gone@${inactive.domain}`);
    await h.t.svc.admin.deactivateOrganizationAsync(inactive.organizationId);
    const page = await b.get(InjectBrowser.location(acs).href);
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('single sign-on is not available');
    const again = await flow.identify(`gone@${inactive.domain}`);
    expect(InjectBrowser.location(again.identified).pathname).toBe(`${h.authBase}/login`);
  });

  it('refuses a malformed post with a 4xx page: missing, garbage, oversized, or an email changed after signing', async () => {
    const connection = await connectionFor();
    const acsPath = new URL(connection.acsUrl).pathname;
    const post = (payload: string) =>
      h.inject({
        method: 'POST',
        url: acsPath,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    for (const payload of [
      '',
      'RelayState=x',
      'SAMLResponse=%%%',
      'SAMLResponse=PGZvbz4%3D&SAMLResponse=x',
    ]) {
      const answer = await post(payload);
      expect(answer.statusCode, payload).toBe(400);
      expect(answer.headers['content-type']).toContain('text/html');
    }
    const long = await post(`SAMLResponse=${'A'.repeat(220_000)}`);
    expect(long.statusCode).toBe(400);
    const huge = await post(`SAMLResponse=${'A'.repeat(3 * 1024 * 1024)}`);
    expect(huge.statusCode).toBe(413);
    expect((await h.inject({ method: 'POST', url: `${h.authBase}/saml/acs/%00` })).statusCode).toBeLessThan(
      500,
    );
    expect((await h.inject({ method: 'GET', url: `${h.authBase}/saml/continue` })).statusCode).toBe(400);

    const { identified } = await flow.identify(`eve@${connection.domain}`);
    const signed = await peer.signIn(InjectBrowser.location(identified).href, {
      email: `eve@${connection.domain}`,
    });
    const xml = Buffer.from(signed.samlResponse, 'base64').toString('utf8');
    const changed = xml.split(`eve@${connection.domain}`).join(`admin@${connection.domain}`);
    const answer = await postToAcs(h, peer, {
      ...signed,
      samlResponse: Buffer.from(changed).toString('base64'),
    });
    expect(answer.statusCode).toBe(400);
    const refusals = await h.auditEvents('saml.response.refused');
    expect(refusals.map((event) => JSON.parse(event.dataJson) as unknown)).toContainEqual({
      connectionId: connection.id,
      error: 'invalid_signature',
    });
    const users = await h.t.svc.database.db
      .selectFrom('users')
      .select('id')
      .where('email', 'in', [`eve@${connection.domain}`, `admin@${connection.domain}`])
      .execute();
    expect(users).toEqual([]);
  });

  it('headless /identify answers a redirect to the IdP for an SSO domain, and the password view for others', async () => {
    const connection = await connectionFor();
    const app = new HeadlessBrowser(h);
    const started = await app.post('/start', headlessStartBody(web.clientId));
    const requestId = started.json<SvcHeadlessActionResult>().viewModel?.requestId ?? '';
    const sso = (
      await app.post('/identify', { requestId, email: `hl@${connection.domain}` })
    ).json<SvcHeadlessActionResult>();
    expect(sso.type).toBe('redirect');
    const idp = new URL(sso.redirectUrl ?? '');
    expect(`${idp.origin}${idp.pathname}`).toBe(peer.ssoUrl);

    const other = await app.post('/start', headlessStartBody(web.clientId));
    const otherId = other.json<SvcHeadlessActionResult>().viewModel?.requestId ?? '';
    const password = (
      await app.post('/identify', { requestId: otherId, email: 'someone@example.com' })
    ).json<SvcHeadlessActionResult>();
    expect(password).toMatchObject({ type: 'view', viewModel: { view: 'password' } });
  });

  it("signs in to the connection's organization, whose MFA policy still applies", async () => {
    const connection = await connectionFor();
    await h.t.svc.admin.updateOrganizationMfaPolicyAsync(
      connection.organizationId,
      organizationMfaPolicy({ requireMfaForAllUsers: true }),
    );
    const { b, acs } = await flow.throughIdp(`mfa.user@${connection.domain}`);
    const step = await b.follow(await b.get(InjectBrowser.location(acs).href));
    expect(step.statusCode).toBe(200);
    expect(step.body).toContain('authenticator app');
    // No issuer session on the first factor alone.
    expect(b.cookies.has('svc_session')).toBe(false);
  });

  it('refuses a linked account that was deactivated since', async () => {
    const connection = await connectionFor();
    const email = `leaver@${connection.domain}`;
    const { claims } = await flow.signInThroughIdp(email);
    await h.t.svc.admin.deactivateUserAsync(String(claims.sub));
    const page = await flow.refusedAtContinue(email);
    expect(page.body).toContain('This account is deactivated');
  });
});

describeAboveStorage('a SAML sign-in driven by an app-owned UI', (kind) => {
  it("the accepted answer sends the browser back to the app's UI for the request's next step", async () => {
    const [h, keys] = await Promise.all([
      createHostedTestApp(kind, { headlessUiUrl: 'http://127.0.0.1:9/sign-in' }),
      samlTestKeys(),
    ]);
    const peer = await startSamlPeer(keys, h.t.clock);
    try {
      const thirdParty = await h.given.client({ isFirstParty: false });
      const domain = `${uniqueName('appui').toLowerCase()}.test`;
      const connection = await givenSsoConnection(h.t, peer, undefined, { primaryDomain: domain });
      await givenActiveDomainClaim(h.t, connection.organizationId, domain);
      const app = new HeadlessBrowser(h);
      const started = await app.post(
        '/start',
        headlessStartBody(thirdParty.clientId, { scope: 'openid email' }),
      );
      const requestId = started.json<SvcHeadlessActionResult>().viewModel?.requestId ?? '';
      const redirect = (
        await app.post('/identify', { requestId, email: `frank@${domain}` })
      ).json<SvcHeadlessActionResult>();
      const post = await peer.signIn(redirect.redirectUrl ?? '', { email: `frank@${domain}` });
      const acs = await h.inject({
        method: 'POST',
        url: new URL(post.acsUrl).pathname,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: peer.origin },
        payload: new URLSearchParams({
          SAMLResponse: post.samlResponse,
          RelayState: post.relayState ?? '',
        }).toString(),
      });
      await expectBackInAppUi(h, app, InjectBrowser.location(acs).href, {
        uiUrl: 'http://127.0.0.1:9/sign-in',
        requestId,
        view: 'consent',
      });
    } finally {
      await peer.close();
      await h.close();
    }
  });
});
