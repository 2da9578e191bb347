import { svcDomainClaimSchema, type SvcDomainClaim } from '@svc/contract';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { SvcConflictError, SvcNotFoundError } from '../../kernel/errors.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { startDnsServer, startSilentDnsServer, type TestDnsServer } from '../../test-support/dns-server.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

/**
 * Domain claims through SvcAdminService on both databases, proven against a name server on loopback that
 * Svc's own resolver queries (SVC_DNS_SERVERS); time moves only with the fake clock.
 */
describeEachDatabase('organization domain claims', (kind) => {
  let dns: TestDnsServer;
  let t: TestSvc;
  let acme: string;
  let globex: string;
  let n = 0;
  /** A fresh domain per test: the name server outlives each test's Svc. */
  let domain: string;

  beforeAll(async () => {
    dns = await startDnsServer();
  });
  afterAll(() => dns.close());
  beforeEach(async () => {
    t = await createTestSvc(kind, { dns: { servers: [dns.address], timeoutMs: 1_000 } });
    acme = (await t.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
    globex = (await t.svc.admin.createOrganizationAsync({ name: 'Globex' })).id;
    domain = `acme-${kind}-${++n}.test`;
  });
  afterEach(() => t.close());

  const start = async (organizationId = acme, name = domain) =>
    svcDomainClaimSchema.parse(await t.svc.admin.startVerificationAsync({ organizationId, domain: name }));
  const confirm = async (claim: SvcDomainClaim) =>
    svcDomainClaimSchema.parse(
      await t.svc.admin.confirmOwnershipAsync({ organizationId: claim.organizationId, id: claim.id }),
    );
  const publish = (claim: SvcDomainClaim, chunks: readonly string[] = [claim.record.value]) =>
    dns.setTxt(claim.record.name, [['v=spf1 -all'], chunks]);
  const audit = async () =>
    (
      await t.svc.database.db
        .selectFrom('auditEvents')
        .select(['kind', 'actorType', 'organizationId', 'dataJson'])
        .where('kind', 'like', 'admin.domain_claim.%')
        .orderBy('occurredAt')
        .orderBy('id')
        .execute()
    ).map((row) => ({ ...row, data: JSON.parse(row.dataJson) as Record<string, unknown> }));

  it('starts a pending claim with the TXT record to publish, and returns it again while it is pending', async () => {
    const claim = await start(acme, ` ${domain.toUpperCase()}. `);
    expect(claim).toMatchObject({
      organizationId: acme,
      domain,
      status: 'pending_ownership',
      record: { type: 'TXT', name: `_svc-verify.${domain}` },
      lastCheck: null,
      verifiedAt: null,
    });
    expect(claim.record.value).toMatch(/^svc-domain-verification=[A-Za-z0-9_-]{43}$/);
    expect(await start()).toEqual(claim);
    expect((await audit()).map((e) => e.kind)).toEqual(['admin.domain_claim.started']);
  });

  it('stays pending with the reason while the record is missing or holds another value', async () => {
    const claim = await start();
    const missing = await confirm(claim);
    expect(missing).toMatchObject({ status: 'pending_ownership', lastCheck: { result: 'record_missing' } });
    expect(missing.lastCheck?.message).toContain(claim.record.name);

    dns.setTxt(claim.record.name, [['svc-domain-verification=someone-elses-value']]);
    const mismatch = await confirm(claim);
    expect(mismatch).toMatchObject({ status: 'pending_ownership', lastCheck: { result: 'value_mismatch' } });
    expect(mismatch.lastCheck?.checkedAt).toBe(new Date(t.clock.now()).toISOString());
    expect(await t.svc.domainClaims.activeClaimOf(domain)).toBeUndefined();
  });

  it('becomes active when the record is published, also split into character-strings', async () => {
    const claim = await start();
    const value = claim.record.value;
    publish(claim, [value.slice(0, 10), value.slice(10, 30), value.slice(30)]);
    t.clock.advance(1_000);
    const active = await confirm(claim);
    expect(active).toMatchObject({ status: 'active', lastCheck: { result: 'verified' } });
    expect(active.verifiedAt).toBe(new Date(t.clock.now()).toISOString());
    expect(await t.svc.domainClaims.activeClaimOf(domain.toUpperCase())).toEqual({
      organizationId: acme,
      claimId: claim.id,
    });
    expect(await t.svc.domainClaims.activeClaimOf(`sub.${domain}`)).toBeUndefined();
    expect(await start()).toMatchObject({ id: claim.id, status: 'active' });
    expect((await audit()).map((e) => [e.kind, e.organizationId, e.data.domain])).toEqual([
      ['admin.domain_claim.started', acme, domain],
      ['admin.domain_claim.verified', acme, domain],
    ]);
  });

  it('stays pending with dns_error when the name server fails or never answers', async () => {
    const claim = await start();
    dns.failName(claim.record.name);
    expect(await confirm(claim)).toMatchObject({
      status: 'pending_ownership',
      lastCheck: { result: 'dns_error', message: expect.stringContaining('ESERVFAIL') as unknown },
    });

    const silent = await startSilentDnsServer();
    const slow = await createTestSvc(kind, { dns: { servers: [silent.address], timeoutMs: 150 } });
    try {
      const org = (await slow.svc.admin.createOrganizationAsync({ name: 'Slow' })).id;
      const pending = await slow.svc.admin.startVerificationAsync({ organizationId: org, domain });
      const started = performance.now();
      const checked = await slow.svc.admin.confirmOwnershipAsync({ organizationId: org, id: pending.id });
      expect(checked).toMatchObject({ status: 'pending_ownership', lastCheck: { result: 'dns_error' } });
      expect(performance.now() - started).toBeLessThan(1_500);
    } finally {
      await slow.close();
      await silent.close();
    }
  });

  it('refuses a domain another organization owns (409), and lets it go once that claim is revoked', async () => {
    const theirs = await start(globex);
    const ours = await start(acme);
    publish(theirs);
    await confirm(theirs);

    await expect(start(acme)).rejects.toThrow(SvcConflictError);
    await expect(start(acme, domain.toUpperCase())).rejects.toThrow(/claimed by another organization/);
    // Our value published beside theirs proves nothing while their claim is active.
    dns.setTxt(theirs.record.name, [[theirs.record.value], [ours.record.value]]);
    await expect(confirm(ours)).rejects.toThrow(SvcConflictError);

    await t.svc.admin.revokeDomainClaimAsync({ organizationId: globex, id: theirs.id });
    expect(await confirm(ours)).toMatchObject({ status: 'active' });
    expect(await t.svc.domainClaims.activeClaimOf(domain)).toEqual({
      organizationId: acme,
      claimId: ours.id,
    });
  });

  it('revokes a claim once; starting again gives the same claim a new value', async () => {
    const claim = await start();
    publish(claim);
    t.clock.advance(1_000);
    await confirm(claim);
    t.clock.advance(1_000);
    const revoked = await t.svc.admin.revokeDomainClaimAsync({ organizationId: acme, id: claim.id });
    expect(revoked).toMatchObject({ status: 'revoked', revokedAt: new Date(t.clock.now()).toISOString() });
    expect(await t.svc.admin.revokeDomainClaimAsync({ organizationId: acme, id: claim.id })).toEqual(revoked);
    expect(await t.svc.domainClaims.activeClaimOf(domain)).toBeUndefined();
    await expect(confirm(claim)).rejects.toThrow(/start the verification of the domain again/);

    t.clock.advance(1_000);
    const again = await start();
    expect(again).toMatchObject({
      id: claim.id,
      status: 'pending_ownership',
      revokedAt: null,
      lastCheck: null,
    });
    expect(again.record.value).not.toBe(claim.record.value);
    // The record left behind from the first claim no longer proves anything.
    expect(await confirm(again)).toMatchObject({ lastCheck: { result: 'value_mismatch' } });
    expect((await audit()).map((e) => [e.kind, e.actorType, e.data.reason])).toEqual([
      ['admin.domain_claim.started', 'system', undefined],
      ['admin.domain_claim.verified', 'system', undefined],
      ['admin.domain_claim.revoked', 'system', 'operator'],
      ['admin.domain_claim.started', 'system', undefined],
    ]);
  });

  it('answers 404 for an unknown organization or another organization’s claim', async () => {
    const claim = await start();
    await expect(start('org_missing')).rejects.toThrow(SvcNotFoundError);
    await expect(t.svc.admin.listDomainClaimsAsync('org_missing')).rejects.toThrow(SvcNotFoundError);
    await expect(t.svc.admin.confirmOwnershipAsync({ organizationId: globex, id: claim.id })).rejects.toThrow(
      SvcNotFoundError,
    );
    await expect(
      t.svc.admin.revokeDomainClaimAsync({ organizationId: globex, id: claim.id }),
    ).rejects.toThrow(SvcNotFoundError);
  });

  it('lists the organization’s claims newest first, page by page', async () => {
    const first = await start(acme, `a.${domain}`);
    t.clock.advance(1_000);
    const second = await start(acme, `b.${domain}`);
    await start(globex, `c.${domain}`);
    const page = await t.svc.admin.listDomainClaimsAsync(acme, { limit: 1 });
    expect(page.data.map((c) => c.id)).toEqual([second.id]);
    const next = await t.svc.admin.listDomainClaimsAsync(acme, { limit: 1, cursor: page.nextCursor ?? '' });
    expect(next).toEqual({ data: [first], nextCursor: null });
  });
});
