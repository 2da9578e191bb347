import {
  auditEventPageSchema,
  pageSchema,
  svcScimConnectionListItemSchema,
  svcScimConnectionSchema,
  svcScimConnectionWithTokenSchema,
  svcScimSyncEventSchema,
} from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { NOT_FOUND_BODY } from '../http/errors.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { scimCall, scimUser } from '../test-support/scim.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

const API = '/svc/admin/auth/api';
type Method = 'GET' | 'POST' | 'PUT';

/**
 * The operator routes of SCIM connections (docs/reference/scim.md "Connections")
 * over HTTP on both databases: the one enabled connection per organization is the database's rule.
 */
describeEachDatabase('SCIM connection operator routes', (kind) => {
  let t: TestSvc;

  beforeAll(async () => {
    t = await createTestSvc(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const call = async (method: Method, path: string, payload?: unknown, authorized = true) => {
    t.clock.advance(1000);
    const response = await t.svc.app.inject({
      method,
      url: `${API}${path}`,
      headers: {
        ...(authorized ? t.operator : {}),
        ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    expect(response.statusCode, response.body).toBeLessThan(500);
    return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
  };
  const organization = async (name: string) => (await t.svc.admin.createOrganizationAsync({ name })).id;
  const create = async (organizationId: string, body: unknown = {}) => {
    const response = await call('POST', `/organizations/${organizationId}/scim-connections`, body);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return svcScimConnectionWithTokenSchema.strict().parse(response.body);
  };

  it('answers 404 without the operator token on every route', async () => {
    const organizationId = await organization('Hidden');
    const { id } = await create(organizationId);
    const routes: [Method, string, unknown][] = [
      ['GET', `/organizations/${organizationId}/scim-connections`, undefined],
      ['GET', '/scim-connections', undefined],
      ['POST', `/organizations/${organizationId}/scim-connections`, {}],
      ['GET', `/scim-connections/${id}`, undefined],
      ['PUT', `/scim-connections/${id}`, { enabled: true }],
      ['POST', `/scim-connections/${id}/enable`, undefined],
      ['POST', `/scim-connections/${id}/disable`, undefined],
      ['POST', `/scim-connections/${id}/token/rotate`, undefined],
      ['POST', `/scim-connections/${id}/rotate-token`, undefined],
      ['GET', `/scim-connections/${id}/sync-events`, undefined],
    ];
    for (const [method, path, payload] of routes) {
      expect(await call(method, path, payload, false), `${method} ${path}`).toEqual({
        status: 404,
        body: NOT_FOUND_BODY,
      });
    }
    expect((await t.svc.admin.getScimConnectionAsync(id)).enabled).toBe(false);
  });

  it('creates a disabled connection with its Base URL and a token shown once, stored only as a hash', async () => {
    const organizationId = await organization('Created');
    const created = await create(organizationId, {
      displayName: 'Entra',
      grantBoundaryResourceId: 'res_root',
    });
    expect(created).toMatchObject({
      organizationId,
      displayName: 'Entra',
      baseUrl: 'http://localhost:8080/svc/scim/v2',
      enabled: false,
      grantBoundary: { resourceId: 'res_root', status: 'not_found' },
      owner: 'dashboard',
    });
    expect(created.token.length).toBeGreaterThanOrEqual(20);
    const read = await call('GET', `/scim-connections/${created.id}`);
    expect(svcScimConnectionSchema.strict().parse(read.body)).not.toHaveProperty('token');
    const rows = await t.svc.database.db
      .selectFrom('scimConnections')
      .selectAll()
      .where('id', '=', created.id)
      .execute();
    expect(JSON.stringify(rows)).not.toContain(created.token);
    // Disabled: its token is refused.
    expect((await scimCall(t, created.token, 'GET', '/Users')).status).toBe(401);
    const listed = await call('GET', `/organizations/${organizationId}/scim-connections`);
    expect(
      pageSchema(svcScimConnectionSchema)
        .parse(listed.body)
        .data.map((c) => c.id),
    ).toEqual([created.id]);
  });

  it("lists every organization's connections with their organization and never a token, filtered", async () => {
    const organizationId = await organization('Listed');
    const disabled = await create(organizationId, { displayName: 'Old' });
    const enabled = await create(organizationId, { displayName: 'New' });
    expect((await call('POST', `/scim-connections/${enabled.id}/enable`)).status).toBe(200);
    const list = pageSchema(svcScimConnectionListItemSchema.strict());
    const everything = await call('GET', '/scim-connections?limit=200');
    expect(JSON.stringify(everything.body)).not.toContain(disabled.token);
    expect(JSON.stringify(everything.body)).not.toContain(enabled.token);
    const all = list.parse(everything.body);
    const { token: _token, ...withoutToken } = disabled;
    expect(all.data.find((c) => c.id === disabled.id)).toEqual({
      ...withoutToken,
      organization: { id: organizationId, name: 'Listed' },
    });
    expect(new Set(all.data.map((c) => c.organization.id)).size).toBeGreaterThan(1);
    const only = (query: string) =>
      call('GET', `/scim-connections?organizationId=${organizationId}&${query}`).then((r) =>
        list.parse(r.body).data.map((c) => c.id),
      );
    expect(await only('limit=200')).toEqual([enabled.id, disabled.id]);
    expect(await only('enabled=true')).toEqual([enabled.id]);
    expect(await only('enabled=false')).toEqual([disabled.id]);
    const first = list.parse(
      (await call('GET', `/scim-connections?organizationId=${organizationId}&limit=1`)).body,
    );
    expect(first.nextCursor).not.toBeNull();
    expect((await call('GET', '/scim-connections?limit=0')).status).toBe(400);
  });

  it('enables one connection per organization (409 for a second), disables, and rotates the token', async () => {
    const organizationId = await organization('One enabled');
    const first = await create(organizationId);
    const second = await create(organizationId);
    expect((await call('POST', `/scim-connections/${first.id}/enable`)).body).toMatchObject({
      enabled: true,
    });
    expect((await call('POST', `/scim-connections/${second.id}/enable`)).status).toBe(409);
    expect((await call('PUT', `/scim-connections/${second.id}`, { enabled: true })).status).toBe(409);
    expect((await scimCall(t, first.token, 'GET', '/Users')).status).toBe(200);

    const rotated = svcScimConnectionWithTokenSchema.parse(
      (await call('POST', `/scim-connections/${first.id}/token/rotate`)).body,
    );
    expect(rotated.token).not.toBe(first.token);
    expect((await scimCall(t, first.token, 'GET', '/Users')).status).toBe(401);
    expect((await scimCall(t, rotated.token, 'GET', '/Users')).status).toBe(200);
    const again = svcScimConnectionWithTokenSchema.parse(
      (await call('POST', `/scim-connections/${first.id}/rotate-token`)).body,
    );
    expect((await scimCall(t, again.token, 'GET', '/Users')).status).toBe(200);

    expect((await call('POST', `/scim-connections/${first.id}/disable`)).body).toMatchObject({
      enabled: false,
    });
    expect((await scimCall(t, again.token, 'GET', '/Users')).status).toBe(401);
    expect((await call('POST', `/scim-connections/${second.id}/enable`)).body).toMatchObject({
      enabled: true,
    });
  });

  it('sets and changes the grant boundary but never removes it, and audits the change', async () => {
    const organizationId = await organization('Boundary');
    const { id } = await create(organizationId);
    expect((await call('GET', `/scim-connections/${id}`)).body).toMatchObject({
      grantBoundary: { resourceId: null, status: 'missing' },
    });
    await call('PUT', `/scim-connections/${id}`, { grantBoundaryResourceId: 'res_a' });
    await call('PUT', `/scim-connections/${id}`, { grantBoundaryResourceId: 'res_b' });
    for (const body of [{ grantBoundaryResourceId: null }, {}, { displayName: 'Renamed' }]) {
      expect((await call('PUT', `/scim-connections/${id}`, body)).body).toMatchObject({
        grantBoundary: { resourceId: 'res_b' },
      });
    }
    const tooLong = await call('PUT', `/scim-connections/${id}`, {
      grantBoundaryResourceId: 'r'.repeat(257),
    });
    expect(tooLong).toMatchObject({ status: 400, body: { error: 'grant_boundary_invalid' } });
    // No FGA resource id holds a control character, and PostgreSQL cannot store a NUL.
    const withNul = { grantBoundaryResourceId: 'res_\u0000a' };
    for (const refused of [
      await call('PUT', `/scim-connections/${id}`, withNul),
      await call('POST', `/organizations/${organizationId}/scim-connections`, withNul),
    ]) {
      expect(refused).toMatchObject({ status: 400, body: { error: 'grant_boundary_invalid' } });
      expect(String(refused.body.message)).toContain('control characters');
    }
    const audit = await t.svc.app.inject({
      method: 'GET',
      url: '/svc/admin/audit/api/events?kind=scim.connection.grant_boundary_changed',
      headers: t.operator,
    });
    const changes = auditEventPageSchema
      .parse(JSON.parse(audit.body))
      .data.filter((event) => event.data.connectionId === id);
    expect(changes.map((event) => event.data.grantBoundaryResourceId)).toEqual(['res_b', 'res_a']);
  });

  it('reads a boundary that is a resource of the FGA tree as configured', async () => {
    const fga = async (path: string, payload: unknown) => {
      const response = await t.svc.app.inject({
        method: 'POST',
        url: `/svc/admin/fga/api${path}`,
        headers: { ...t.operator, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
      expect(response.statusCode, response.body).toBe(201);
      return String((JSON.parse(response.body) as { id: unknown }).id);
    };
    const typeId = await fga('/resource-types', { key: 'organization', name: 'Organization' });
    const resourceId = await fga('/resources', { name: 'Tree root', typeId, parentId: null });
    const { id } = await create(await organization('Configured'), { grantBoundaryResourceId: resourceId });
    expect((await call('GET', `/scim-connections/${id}`)).body).toMatchObject({
      grantBoundary: { resourceId, status: 'configured' },
    });
  });

  it('refuses bad bodies and unknown ids with 4xx', async () => {
    const organizationId = await organization('Bad input');
    const { id } = await create(organizationId);
    expect((await call('POST', '/organizations/org_missing/scim-connections', {})).status).toBe(404);
    expect((await call('GET', '/scim-connections/scim_missing')).status).toBe(404);
    expect((await call('PUT', `/scim-connections/${id}`, { enabled: 'yes' })).status).toBe(400);
    expect(
      (await call('POST', `/organizations/${organizationId}/scim-connections`, { displayName: '' })).status,
    ).toBe(400);
    expect((await call('GET', `/scim-connections/${id}/sync-events?outcome=maybe`)).status).toBe(400);
  });

  it('lists the sync events of a connection, newest first', async () => {
    const organizationId = await organization('Events');
    const created = await create(organizationId);
    await call('POST', `/scim-connections/${created.id}/enable`);
    const user = await scimCall(t, created.token, 'POST', '/Users', scimUser('eve@events.test'));
    t.clock.advance(1000);
    await scimCall(t, created.token, 'DELETE', `/Users/${String(user.body?.id)}`);
    const events = pageSchema(svcScimSyncEventSchema).parse(
      (await call('GET', `/scim-connections/${created.id}/sync-events`)).body,
    );
    // The DELETE records two events in the same millisecond: their order between them is not fixed.
    const [deleted, deprovisioned, first] = events.data.map((event) => [
      event.kind,
      event.outcome,
      event.resourceId,
    ]);
    expect([deleted, deprovisioned].sort()).toEqual([
      ['scim.user.deleted', 'succeeded', user.body?.id],
      ['scim.user.deprovisioned', 'succeeded', user.body?.id],
    ]);
    expect(first).toEqual(['scim.user.created', 'succeeded', user.body?.id]);
    const failed = await call('GET', `/scim-connections/${created.id}/sync-events?outcome=failed`);
    expect(failed.body).toMatchObject({ data: [] });
  });
});
