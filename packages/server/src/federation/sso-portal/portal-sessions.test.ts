import { pageSchema, svcSsoPortalLinkSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../../http/errors.js';
import { DAY_MS, HOUR_MS } from '../../kernel/clock.js';
import { describeEachDatabase } from '../../test-support/databases.js';
import { operatorApi } from '../../test-support/operator-api.js';
import { createTestSvc, type TestSvc } from '../../test-support/test-svc.js';

const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

/**
 * Setup links and portal sessions on both databases: a link is exchanged at most once (also when two
 * exchanges race), revoking it ends its sessions, and both expire by the clock; the operators' list of
 * every organization's links pages newest first.
 */
describeEachDatabase('SSO setup portal sessions', (kind) => {
  let t: TestSvc;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestSvc(kind);
    organizationId = (await t.svc.admin.createOrganizationAsync({ name: 'Acme' })).id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('exchanges a link once, even when two exchanges race, for a session of its organization', async () => {
    const { sessions } = t.svc.ssoPortal;
    const token = tokenOf((await t.svc.admin.createSsoPortalLinkAsync(organizationId)).url);
    const results = await Promise.all([
      sessions.exchange(token, '198.51.100.1'),
      sessions.exchange(token, '198.51.100.1'),
    ]);
    const started = results.filter((r) => r !== undefined);
    expect(started).toHaveLength(1);
    const [only] = started;
    expect(only?.session).toMatchObject({
      organizationId,
      expiresAt: t.clock.now() + 8 * HOUR_MS,
      testResult: null,
    });
    expect(await sessions.find(only?.secret ?? '')).toEqual(only?.session);
    expect(await sessions.exchange(token, '198.51.100.1')).toBeUndefined();
  });

  it('ends the sessions of a revoked link, and keeps a result only for a live session', async () => {
    const { sessions } = t.svc.ssoPortal;
    const link = await t.svc.admin.createSsoPortalLinkAsync(organizationId);
    const started = await sessions.exchange(tokenOf(link.url), '198.51.100.2');
    const result = { outcome: 'refused', connectionId: 'sso_x', at: t.clock.now(), message: 'No.' } as const;
    await sessions.recordTestResult(started?.session.id ?? '', result);
    expect((await sessions.findById(started?.session.id ?? ''))?.testResult).toEqual(result);
    expect((await t.svc.admin.revokeSsoPortalLinkAsync(link.id)).status).toBe('revoked');
    expect(await sessions.find(started?.secret ?? '')).toBeUndefined();
    expect(await sessions.findById(started?.session.id ?? '')).toBeUndefined();
    expect((await t.svc.admin.revokeSsoPortalLinkAsync(link.id)).status).toBe('revoked');
  });

  it('expires links after seven days and never lets a session outlive its link', async () => {
    const { sessions } = t.svc.ssoPortal;
    const unused = await t.svc.admin.createSsoPortalLinkAsync(organizationId);
    const late = await t.svc.admin.createSsoPortalLinkAsync(organizationId);
    t.clock.advance(7 * DAY_MS - HOUR_MS);
    const started = await sessions.exchange(tokenOf(late.url), '198.51.100.3');
    expect(started?.session.expiresAt).toBe(Date.parse(late.expiresAt));
    t.clock.advance(HOUR_MS);
    expect(await sessions.find(started?.secret ?? '')).toBeUndefined();
    expect(await sessions.exchange(tokenOf(unused.url), '198.51.100.3')).toBeUndefined();
    const listed = await t.svc.admin.listSsoPortalLinksAsync(organizationId);
    expect(listed.data.find((l) => l.id === unused.id)?.status).toBe('expired');
    expect(listed.data.find((l) => l.id === late.id)?.status).toBe('used');
  });

  it("lists every organization's links newest first, paged and narrowed by organization, never a token", async () => {
    const call = operatorApi('/svc/admin/auth/api', () => t, { ordered: true });
    const globex = (await t.svc.admin.createOrganizationAsync({ name: 'Globex' })).id;
    const created = [];
    for (const organization of [organizationId, globex, organizationId]) {
      created.push((await call('POST', `/organizations/${organization}/sso-portal/sessions`)).body);
    }
    const list = pageSchema(svcSsoPortalLinkSchema.strict());
    const first = await call('GET', '/sso-portal/sessions?limit=2');
    expect(first.status, first.text).toBe(200);
    const page = list.parse(first.body);
    expect(page.data.map((link) => link.id)).toEqual([created[2]?.id, created[1]?.id]);
    expect(page.data[1]).toMatchObject({ organizationId: globex, status: 'unused', usedAt: null });
    for (const link of created) expect(first.text).not.toContain(tokenOf(String(link.url)));
    const next = list.parse(
      (await call('GET', `/sso-portal/sessions?limit=2&cursor=${page.nextCursor}`)).body,
    );
    expect(next.data[0]?.id).toBe(created[0]?.id);
    const scoped = await t.svc.admin.listSsoPortalLinksAsync(organizationId, { limit: 200 });
    const narrowed = list.parse(
      (await call('GET', `/sso-portal/sessions?organizationId=${organizationId}&limit=200`)).body,
    );
    expect(narrowed).toEqual(scoped);
    expect((await t.svc.admin.listAllSsoPortalLinksAsync({ organizationId: globex })).data).toEqual([
      page.data[1],
    ]);
    expect(
      list.parse((await call('GET', '/sso-portal/sessions?organizationId=org_unknown')).body).data,
    ).toEqual([]);
    const bad = await call('GET', `/sso-portal/sessions?limit=0&organizationId=${'x'.repeat(201)}`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('limit');
    expect(bad.text).toContain('organizationId');
    const anonymous = await call('GET', '/sso-portal/sessions', undefined, false);
    expect({ status: anonymous.status, body: anonymous.body }).toEqual({ status: 404, body: NOT_FOUND_BODY });
  });
});
