import type { SvcCreatedClient } from '@svc/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { authorizeQuery } from '../../test-support/authorize-params.js';
import { describeAboveStorage } from '../../test-support/databases.js';
import type { SamlPeer } from '../../test-support/federation/saml-peer.js';
import {
  givenActiveDomainClaim,
  givenSsoConnection,
  postToAcs,
  useSamlSuite,
} from '../../test-support/federation/sso-connections.js';
import { uniqueName, type HostedTestApp } from '../../test-support/hosted-test-app.js';
import { InjectBrowser } from '../../test-support/inject-browser.js';

/**
 * A SAML answer whose address only upper-cases to an existing account's, with a dotless ı (U+0131) before
 * the @ or in the domain (docs/decisions/admin-email-identity-ascii-exact.md). The connection links by
 * email and its organization holds the domain's claim, so the account's own address binds it; these
 * never do, and the sign-in is refused with what to do.
 */
describeAboveStorage('SAML answers with addresses that look like an account’s', (kind) => {
  let h: HostedTestApp;
  let peer: SamlPeer;
  let web: SvcCreatedClient;
  useSamlSuite(kind, (suite) => ({ h, peer, web } = suite));

  /** The IdP answers `asserted` for a sign-in that identified `typed`; the page the browser ends on. */
  async function answered(typed: string, asserted: string): Promise<LightMyRequestResponse> {
    const b = new InjectBrowser(h);
    await b.follow(await b.authorize(authorizeQuery(web.clientId)));
    const identified = await b.post('/login/identify', { email: typed });
    expect(identified.statusCode).toBe(303);
    const post = await peer.signIn(InjectBrowser.location(identified).href, {
      email: asserted,
      attributes: { email: [asserted] },
    });
    const acs = await postToAcs(h, peer, post);
    return acs.statusCode === 303 ? b.get(InjectBrowser.location(acs).href) : acs;
  }

  for (const [name, lookalike] of [
    ['before the @', (domain: string) => `admın@${domain}`],
    ['in the domain', (domain: string) => `admin@${domain.replace('i', 'ı')}`],
  ] as const) {
    it(`never binds the account of admin@… to a dotless ı ${name}`, async () => {
      const domain = `${uniqueName('github').toLowerCase()}.test`;
      const connection = await givenSsoConnection(h.t, peer, undefined, {
        primaryDomain: domain,
        autoLinkByEmail: true,
      });
      await givenActiveDomainClaim(h.t, connection.organizationId, domain);
      const admin = await h.given.user(`admin@${domain}`);

      const page = await answered(admin.email, lookalike(domain));
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('ASCII before the @');
      const links = await h.t.svc.database.db
        .selectFrom('samlIdentities')
        .select('userId')
        .where('connectionId', '=', connection.id)
        .execute();
      expect(links).toEqual([]);
      expect(await h.t.svc.admin.userHasMembershipAsync(admin.id, connection.organizationId)).toBe(false);
      // The account's own address binds it: the refusals above were the addresses'.
      const own = await answered(admin.email, admin.email);
      expect(InjectBrowser.location(own).origin).toBe('https://app.example.com');
      expect(await h.t.svc.admin.userHasMembershipAsync(admin.id, connection.organizationId)).toBe(true);
    });
  }
});
