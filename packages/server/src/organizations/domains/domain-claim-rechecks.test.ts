import type { SvcDomainClaim } from '@svc/contract';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { SvcOptions } from '../../config/options.js';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../kernel/clock.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { startDnsServer, type TestDnsServer } from '../../test-support/dns-server.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

/**
 * The scheduled re-verification of active claims, run by housekeeping, on both databases: the fake clock
 * moves a day at a time (nothing sleeps) while the name server on loopback keeps or loses the record.
 */
describeEachDatabase('re-verification of domain claims', (kind) => {
  let dns: TestDnsServer;
  let t: TestSvc | undefined;
  let n = 0;

  beforeAll(async () => {
    dns = await startDnsServer();
  });
  afterAll(() => dns.close());
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** A Svc with an organization whose claim on a fresh domain is active. */
  async function activeClaim(options: SvcOptions = {}): Promise<{ svc: TestSvc; claim: SvcDomainClaim }> {
    const svc = await createTestSvc(kind, { dns: { servers: [dns.address], timeoutMs: 1_000 }, ...options });
    t = svc;
    const organizationId = (await svc.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
    const started = await svc.svc.admin.startVerificationAsync({
      organizationId,
      domain: `recheck-${kind}-${++n}.test`,
    });
    dns.setTxt(started.record.name, [[started.record.value]]);
    const claim = await svc.svc.admin.confirmOwnershipAsync({ organizationId, id: started.id });
    expect(claim.status).toBe('active');
    return { svc, claim };
  }

  const current = async (svc: TestSvc, claim: SvcDomainClaim) =>
    (await svc.svc.admin.listDomainClaimsAsync(claim.organizationId)).data.find((c) => c.id === claim.id);
  /** Moves the clock by `ms` and runs housekeeping once; answers what the re-checks did. */
  const after = async (svc: TestSvc, ms: number) => {
    svc.clock.advance(ms);
    return (await svc.svc.housekeeping()).domainClaims;
  };
  const recheckEvents = async (svc: TestSvc) =>
    (
      await svc.svc.database.db
        .selectFrom('auditEvents')
        .select(['kind', 'actorType', 'dataJson'])
        .where('kind', 'in', ['admin.domain_claim.recheck_failed', 'admin.domain_claim.revoked'])
        .orderBy('occurredAt')
        .orderBy('kind')
        .execute()
    ).map((row) => ({ kind: row.kind, actorType: row.actorType, ...JSON.parse(row.dataJson) }) as unknown);

  it('checks an active claim a day after its last check and revokes it after three days without the record', async () => {
    const { svc, claim } = await activeClaim();
    expect(await after(svc, DAY_MS - MINUTE_MS)).toEqual({ checked: 0, revoked: 0 });
    expect(await after(svc, MINUTE_MS)).toEqual({ checked: 1, revoked: 0 });
    expect(await current(svc, claim)).toMatchObject({ status: 'active', lastCheck: { result: 'verified' } });

    dns.remove(claim.record.name);
    expect(await after(svc, DAY_MS)).toEqual({ checked: 1, revoked: 0 });
    expect(await current(svc, claim)).toMatchObject({
      status: 'active',
      lastCheck: { result: 'record_missing' },
    });
    expect(await after(svc, HOUR_MS)).toEqual({ checked: 0, revoked: 0 });
    expect(await after(svc, DAY_MS - HOUR_MS)).toEqual({ checked: 1, revoked: 0 });
    expect(await after(svc, DAY_MS)).toEqual({ checked: 1, revoked: 1 });

    expect(await current(svc, claim)).toMatchObject({
      status: 'revoked',
      revokedAt: new Date(svc.clock.now()).toISOString(),
      lastCheck: { result: 'record_missing' },
    });
    expect(await svc.svc.domainClaims.activeClaimOf(claim.domain)).toBeUndefined();
    expect(await after(svc, DAY_MS)).toEqual({ checked: 0, revoked: 0 });
    const base = { actorType: 'system', claimId: claim.id, domain: claim.domain, result: 'record_missing' };
    expect(await recheckEvents(svc)).toEqual([
      { kind: 'admin.domain_claim.recheck_failed', ...base, failedChecks: 1, counted: true },
      { kind: 'admin.domain_claim.recheck_failed', ...base, failedChecks: 2, counted: true },
      { kind: 'admin.domain_claim.recheck_failed', ...base, failedChecks: 3, counted: true },
      { kind: 'admin.domain_claim.revoked', ...base, reason: 'recheck_failed' },
    ]);
  });

  it('starts counting again when the record is back, and never counts a look-up without an answer', async () => {
    const { svc, claim } = await activeClaim();
    dns.setTxt(claim.record.name, [['svc-domain-verification=not-ours']]);
    await after(svc, DAY_MS);
    await after(svc, DAY_MS);
    dns.setTxt(claim.record.name, [[claim.record.value]]);
    await after(svc, DAY_MS);
    expect(await current(svc, claim)).toMatchObject({ status: 'active', lastCheck: { result: 'verified' } });

    dns.failName(claim.record.name);
    for (let day = 0; day < 4; day++) expect(await after(svc, DAY_MS)).toEqual({ checked: 1, revoked: 0 });
    expect(await current(svc, claim)).toMatchObject({ status: 'active', lastCheck: { result: 'dns_error' } });

    dns.remove(claim.record.name);
    await after(svc, DAY_MS);
    await after(svc, DAY_MS);
    expect(await current(svc, claim)).toMatchObject({ status: 'active' });
    expect(await after(svc, DAY_MS)).toEqual({ checked: 1, revoked: 1 });
    const counted = (await recheckEvents(svc)) as { result?: string; counted?: boolean }[];
    expect(counted.filter((e) => e.result === 'dns_error').every((e) => e.counted === false)).toBe(true);
  });

  it('takes each due claim on one run only when housekeeping runs twice at once', async () => {
    const { svc, claim } = await activeClaim();
    svc.clock.advance(DAY_MS);
    const asked = dns.asked.length;
    const reports = await Promise.all([svc.svc.housekeeping(), svc.svc.housekeeping()]);
    expect(reports.map((r) => r.domainClaims.checked).sort()).toEqual([0, 1]);
    expect(dns.asked.slice(asked)).toEqual([claim.record.name]);
  });

  it('follows the configured interval and count, and leaves pending and revoked claims alone', async () => {
    const { svc, claim } = await activeClaim({
      domainVerification: { recheckIntervalMs: HOUR_MS, revokeAfterFailedChecks: 1 },
    });
    const pending = await svc.svc.admin.startVerificationAsync({
      organizationId: claim.organizationId,
      domain: `pending-${claim.domain}`,
    });
    dns.remove(claim.record.name);
    expect(await after(svc, HOUR_MS)).toEqual({ checked: 1, revoked: 1 });
    expect(await after(svc, DAY_MS)).toEqual({ checked: 0, revoked: 0 });
    expect(await current(svc, { ...claim, id: pending.id })).toMatchObject({
      status: 'pending_ownership',
      lastCheck: null,
    });
  });
});
