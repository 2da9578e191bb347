import { auditEventPageSchema, pageSchema, svcDomainClaimSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { startDnsServer, type TestDnsServer } from '../test-support/dns-server.js';
import { operatorApi } from '../test-support/operator-api.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const API = '/svc/admin/auth/api';
const AUDIT = '/svc/admin/audit/api';
const strictClaim = svcDomainClaimSchema.strict();
const claimPage = pageSchema(strictClaim);

/**
 * The operator routes of organization domain claims (docs/reference/organizations.md "Domain claims"), on
 * both databases, against a name server on loopback that Svc's resolver queries through `dns.servers`.
 */
describeEachDatabase('domain claim operator routes', (kind) => {
  let dns: TestDnsServer;
  let t: TestSvc;
  let acme: string;
  let globex: string;

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestSvc(kind, { dns: { servers: [dns.address], timeoutMs: 1_000 } });
    acme = (await t.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
    globex = (await t.svc.admin.createOrganizationAsync({ name: 'Globex' })).id;
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const call = operatorApi(API, () => t, { ordered: true });
  const start = async (organizationId: string, domain: string) => {
    const response = await call('POST', `/organizations/${organizationId}/domains`, { Domain: domain });
    expect(response.status, response.text).toBe(201);
    return strictClaim.parse(response.body);
  };
  const verify = async (organizationId: string, id: string) => {
    const response = await call('POST', `/organizations/${organizationId}/domains/${id}/verify`);
    expect(response.status, response.text).toBe(200);
    return strictClaim.parse(response.body);
  };

  it('answers 404 without the operator token on every route, and changes nothing', async () => {
    const claim = await start(acme, 'hidden.test');
    dns.setTxt(claim.record.name, [[claim.record.value]]);
    const routes: ['GET' | 'POST', string, unknown][] = [
      ['GET', `/organizations/${acme}/domains`, undefined],
      ['POST', `/organizations/${acme}/domains`, { domain: 'leak.test' }],
      ['POST', `/organizations/${acme}/domains/${claim.id}/verify`, undefined],
      ['POST', `/organizations/${acme}/domains/${claim.id}/revoke`, undefined],
    ];
    for (const [method, path, payload] of routes) {
      const response = await call(method, path, payload, false);
      expect(response, `${method} ${path}`).toMatchObject({ status: 404, body: NOT_FOUND_BODY });
    }
    const list = claimPage.parse((await call('GET', `/organizations/${acme}/domains`)).body);
    expect(list.data).toEqual([claim]);
  });

  it('claims a domain, stays pending with the reason until the record is published, then is active', async () => {
    const claim = await start(acme, 'Bücher.Example');
    expect(claim).toMatchObject({
      domain: 'xn--bcher-kva.example',
      status: 'pending_ownership',
      record: { type: 'TXT', name: '_svc-verify.xn--bcher-kva.example' },
    });
    expect(claim.record.value).toMatch(/^svc-domain-verification=/);

    const pending = await verify(acme, claim.id);
    expect(pending).toMatchObject({ status: 'pending_ownership', lastCheck: { result: 'record_missing' } });

    dns.setTxt(claim.record.name, [['svc-domain-verification=', claim.record.value.split('=')[1] ?? '']]);
    const active = await verify(acme, claim.id);
    expect(active).toMatchObject({ status: 'active', lastCheck: { result: 'verified' } });
    expect(active.verifiedAt).toEqual(expect.any(String));

    const again = await start(acme, 'xn--bcher-kva.example');
    expect(again).toEqual(active);

    const events = auditEventPageSchema
      .parse(
        (
          await t.svc.app.inject({
            method: 'GET',
            url: `${AUDIT}/events?kind=admin.domain_claim.*&limit=200`,
            headers: t.operator,
          })
        ).json(),
      )
      .data.filter((event) => event.data.claimId === claim.id);
    expect(events.map((event) => [event.kind, event.actorType, event.organizationId]).reverse()).toEqual([
      ['admin.domain_claim.started', 'operator', acme],
      ['admin.domain_claim.verified', 'operator', acme],
    ]);
  });

  it('answers 409 for a domain another organization owns', async () => {
    const theirs = await start(globex, 'owned.test');
    dns.setTxt(theirs.record.name, [[theirs.record.value]]);
    await verify(globex, theirs.id);
    const response = await call('POST', `/organizations/${acme}/domains`, { domain: 'OWNED.test' });
    expect(response).toMatchObject({ status: 409, body: { error: 'conflict' } });
  });

  it('revokes a claim, reads and lists claims newest first, and answers 404 for unknown records', async () => {
    const first = await start(acme, 'first.test');
    const second = await start(acme, 'second.test');
    const revoked = await call('POST', `/organizations/${acme}/domains/${first.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(strictClaim.parse(revoked.body)).toMatchObject({ id: first.id, status: 'revoked' });

    const page = claimPage.parse((await call('GET', `/organizations/${acme}/domains?limit=2`)).body);
    expect(page.data.map((claim) => [claim.id, claim.status])).toEqual([
      [second.id, 'pending_ownership'],
      [first.id, 'revoked'],
    ]);
    expect(page.nextCursor).not.toBeNull();
    const read = await call('GET', `/organizations/${acme}/domains/${first.id}`);
    expect(read.status).toBe(200);
    expect(strictClaim.parse(read.body)).toEqual(strictClaim.parse(revoked.body));

    for (const [method, path] of [
      ['GET', '/organizations/org_missing/domains'],
      ['GET', `/organizations/${globex}/domains/${first.id}`],
      ['GET', `/organizations/${acme}/domains/dom_missing`],
      ['POST', `/organizations/${globex}/domains/${first.id}/verify`],
      ['POST', `/organizations/${acme}/domains/dom_missing/revoke`],
    ] as const) {
      expect((await call(method, path)).status, path).toBe(404);
    }
    const unknownOrg = await call('POST', '/organizations/org_missing/domains', { domain: 'x.test' });
    expect(unknownOrg.status).toBe(404);
    const revokedVerify = await call('POST', `/organizations/${acme}/domains/${first.id}/verify`);
    expect(revokedVerify).toMatchObject({ status: 409, body: { error: 'conflict' } });
  });

  it.each([
    [{ domain: 'not a domain' }, 'must be a domain name such as example.com'],
    [{ domain: '192.0.2.1' }, 'not an IP address'],
    [{ domain: 'com' }, 'below its top-level domain'],
    [{ domain: 'https://acme.test/' }, 'must be a domain name'],
    [{ domain: 42 }, 'domain'],
    [{}, 'domain'],
  ])('refuses %j with a 400 that names the domain', async (payload, message) => {
    const response = await call('POST', `/organizations/${acme}/domains`, payload);
    expect(response).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(response.body.message).toContain('domain');
    expect(response.body.message).toContain(message);
  });
});
