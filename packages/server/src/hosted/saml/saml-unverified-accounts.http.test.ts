import type { SvcCreatedClient } from '@svc/contract';
import { expect, it } from 'vitest';
import { describeAboveStorage } from '../../test-support/databases.js';
import { samlBrowserFlow, type SamlBrowserFlow } from '../../test-support/federation/saml-browser.js';
import type { SamlPeer } from '../../test-support/federation/saml-peer.js';
import {
  givenActiveDomainClaim,
  givenSsoConnection,
  useSamlSuite,
} from '../../test-support/federation/sso-connections.js';
import { uniqueName, type HostedTestApp } from '../../test-support/hosted-test-app.js';
import { endedSession, probeSession } from '../../test-support/session-probe.js';
import { silentCode, squatAccount } from '../../test-support/squatter.js';

const OUTSIDE_CLAIMS = 'This organization&#39;s single sign-on creates accounts only for email addresses';

/**
 * What a SAML connection may do with an address (docs/decisions/accounts-linking-unverified-accounts.md):
 * create an account only within its organization's active domain claims, whoever set the connection up
 * (an operator, or a customer's admin in the setup portal), and bind an existing account of an address
 * it vouches for only after ending what whoever held that unverified account set up.
 */
describeAboveStorage('SAML sign-ins and addresses their organization does not own', (kind) => {
  let h: HostedTestApp;
  let peer: SamlPeer;
  let web: SvcCreatedClient;
  let flow: SamlBrowserFlow;

  useSamlSuite(kind, (suite) => {
    ({ h, peer, web } = suite);
    flow = samlBrowserFlow(h, peer, web.clientId);
  });

  const domainOf = (prefix: string) => `${uniqueName(prefix).toLowerCase()}.test`;
  const usersWith = (email: string) =>
    h.t.svc.database.db.selectFrom('users').selectAll().where('email', '=', email).execute();

  it('an operator connection that provisions users creates none outside its claims, and says what to do', async () => {
    const domain = domainOf('corp');
    const connection = await givenSsoConnection(h.t, peer, undefined, { primaryDomain: domain });
    // The connection's primary domain routes users to it, but proves nothing.
    const unclaimed = await flow.refusedAtContinue(`new.hire@${domain}`);
    expect(unclaimed.body).toContain(OUTSIDE_CLAIMS);
    expect(unclaimed.body).toContain('verify');

    await givenActiveDomainClaim(h.t, connection.organizationId, domain);
    // The IdP may assert any address: one outside the claims is refused all the same.
    const elsewhere = await flow.refusedAtContinue(`new.hire@${domain}`, {
      email: 'someone.else@victim-mail.test',
    });
    expect(elsewhere.body).toContain(OUTSIDE_CLAIMS);
    expect(await usersWith('someone.else@victim-mail.test')).toEqual([]);
    const [refusal] = (await h.auditEvents('saml.sign_in.refused')).filter((event) =>
      event.dataJson.includes('domain_not_claimed'),
    );
    expect(refusal).toBeDefined();

    const { claims } = await flow.signInThroughIdp(`new.hire@${domain}`);
    expect(await h.t.svc.admin.getUserAsync(String(claims.sub))).toMatchObject({ emailVerified: true });
  });

  it("a connection made in the setup portal provisions only addresses of the organization's active claims", async () => {
    const domain = domainOf('portal');
    const organization = await h.t.svc.admin.createOrganizationAsync({ name: uniqueName('Portal Org') });
    const link = await h.t.svc.admin.createSsoPortalLinkAsync(organization.id);
    const token = new URL(link.url).searchParams.get('token') ?? '';
    const started = await h.t.svc.ssoPortal.sessions.exchange(token, '198.51.100.7');
    if (started === undefined) throw new Error('the link was refused');
    const actor = { session: started.session, ipAddress: '198.51.100.7' };
    const { setup } = h.t.svc.ssoPortal;
    await setup.startDomain(actor, domain);
    const draft = await setup.createConnection(actor, {
      displayName: 'Customer IdP',
      primaryDomain: null,
      autoProvisionUsers: true,
      autoLinkByEmail: true,
    });
    peer.trust(await h.t.svc.samlServiceProvider.metadata(draft.id));
    await setup.importMetadata(actor, draft.id, { metadataXml: peer.metadata(), enableConnection: true });
    // The customer's claim is proved (as a confirmed DNS record leaves it) for the domain they own.
    await h.t.svc.database.db
      .updateTable('organizationDomains')
      .set({ status: 'active', verifiedAt: h.t.clock.now() })
      .where('organizationId', '=', organization.id)
      .execute();

    const page = await flow.refusedAtContinue(`admin@${domain}`, { email: 'ceo@victim-mail.test' });
    expect(page.body).toContain(OUTSIDE_CLAIMS);
    expect(await usersWith('ceo@victim-mail.test')).toEqual([]);
    const { claims } = await flow.signInThroughIdp(`admin@${domain}`);
    expect(await h.t.svc.admin.userHasMembershipAsync(String(claims.sub), organization.id)).toBe(true);
  });

  it("binding an address the organization owns claims the squatted account: the squatter's password, factor and sessions end", async () => {
    const domain = domainOf('linked');
    const email = `victim@${domain}`;
    const connection = await givenSsoConnection(h.t, peer, undefined, {
      primaryDomain: null,
      autoLinkByEmail: true,
    });
    // Before the organization proves its domain, a squatter signs up with an address there.
    const squatter = await squatAccount(h, web.clientId, email);

    await givenActiveDomainClaim(h.t, connection.organizationId, domain);
    const { claims } = await flow.signInThroughIdp(email);
    expect(claims.sub).toBe(squatter.id);

    expect(await usersWith(email)).toMatchObject([{ emailVerified: 1, passwordHash: null }]);
    expect(await h.t.svc.auth.listMfaAuthenticatorsAsync(squatter.id)).toEqual([]);
    expect(await probeSession(h.t.svc, squatter.tokens, web)).toEqual(endedSession());
    expect(await silentCode(squatter.browser, web.clientId)).toBeNull();
    const [claimed] = (await h.auditEvents('user.unverified_account_claimed')).filter(
      (event) => event.userId === squatter.id,
    );
    expect(JSON.parse(claimed?.dataJson ?? '{}')).toMatchObject({
      method: 'saml',
      connectionId: connection.id,
      passwordRemoved: true,
      authenticators: 1,
      sessionsRevoked: 1,
      browserSessionsEnded: 1,
    });
  });
});
