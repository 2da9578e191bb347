import { svcHomeRealmDiscoveryResultSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { samlTestKeys } from '../test-support/federation/saml-certificates.js';
import { givenActiveDomainClaim, givenSsoConnection } from '../test-support/federation/sso-connections.js';
import { startSamlPeer, type SamlPeer } from '../test-support/federation/saml-peer.js';
import { operatorApi } from '../test-support/operator-api.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const API = '/svc/admin/auth/api';

/**
 * The operators' preview of home-realm discovery (docs/reference/federation.md "Home-realm discovery"),
 * over HTTP on both databases: it answers what the identify step decides, and writes nothing.
 */
describeEachDatabase('home-realm discovery preview route', (kind) => {
  let t: TestSvc;
  let peer: SamlPeer;

  beforeAll(async () => {
    t = await createTestSvc(kind);
    peer = await startSamlPeer(await samlTestKeys(), t.clock);
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
  });

  const call = operatorApi(API, () => t);
  const preview = async (email: string) => {
    const response = await call('POST', '/home-realm-discovery', { Email: email });
    expect(response.status, response.text).toBe(200);
    return svcHomeRealmDiscoveryResultSchema.parse(response.body);
  };

  it('answers the SSO realm of a primary domain, a claimed domain first, and password for the rest', async () => {
    const named = await givenSsoConnection(t, peer, undefined, { primaryDomain: 'named.test' });
    const claiming = await givenSsoConnection(t, peer, undefined, { primaryDomain: null });
    const organization = await t.svc.admin.getOrganizationAsync(named.organizationId);

    expect(await preview('ada@Named.test')).toEqual({
      mode: 'sso',
      organizationId: organization.id,
      organizationName: organization.name,
      primaryDomain: 'named.test',
      connectionId: named.id,
    });
    expect(await preview('ada@elsewhere.test')).toEqual({ mode: 'password' });

    // A DNS-proven claim wins over a typed primary domain (docs/reference/federation.md).
    await givenActiveDomainClaim(t, claiming.organizationId, 'named.test');
    expect(await preview('ada@named.test')).toMatchObject({ mode: 'sso', connectionId: claiming.id });

    await t.svc.admin.disableSsoConnectionAsync(claiming.id);
    // A preview records nothing: the audit log is as it was.
    const events = async () => (await t.svc.audit.list({ limit: 200 })).data.length;
    const before = await events();
    expect(await preview('ada@named.test')).toEqual({ mode: 'password' });
    expect(await events()).toBe(before);
  });

  it('refuses an address that is not one with a 400 naming email, and answers 404 to a stranger', async () => {
    const bad = await call('POST', '/home-realm-discovery', { email: 'not an address' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      details: [{ path: 'email', message: 'must be a valid email address' }],
    });
    expect((await call('POST', '/home-realm-discovery', 'null')).status).toBe(400);

    const stranger = await call('POST', '/home-realm-discovery', { email: 'ada@named.test' }, false);
    expect({ status: stranger.status, body: stranger.body }).toEqual({ status: 404, body: NOT_FOUND_BODY });
  });
});
