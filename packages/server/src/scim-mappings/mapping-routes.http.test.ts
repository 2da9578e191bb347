import { pageSchema, svcScimMappingSchema } from '@svc/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SvcGrantBoundaryError } from '../scim/errors.js';
import { describeEachDatabase } from '../test-support/databases.js';
import { fgaApi } from '../test-support/fga-api.js';
import { seedFgaTree } from '../test-support/fga-tree.js';
import { mappingTenant, operatorApi, type MappingTenant } from '../test-support/scim-mappings.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * The operator routes of SCIM mapping rules on both databases: each SCIM boundary error code of
 * docs/reference/scim.md "Mapping rules" where it is raised, the references a rule names, and the reads with
 * their grantBoundaryStatus.
 */
describeEachDatabase('SCIM mapping rule routes and the grant boundary', (kind) => {
  let t: TestSvc;
  let acme: MappingTenant;
  let operator: ReturnType<typeof operatorApi>;
  let rule: (extra?: Record<string, unknown>) => Record<string, unknown>;

  beforeAll(async () => {
    t = await createTestSvc(kind);
    operator = operatorApi(t.svc);
    acme = await mappingTenant(t.svc, 'Acme');
    rule = (extra = {}) => ({
      displayName: 'Engineering reads P',
      match: { groupDisplayName: 'Engineering' },
      roleId: acme.model.viewer,
      resourceId: acme.project,
      ...extra,
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (connectionId: string, body: unknown) =>
    operator('POST', `/scim-connections/${connectionId}/mappings`, body);
  const expectBoundaryError = (answer: { status: number; body: Record<string, unknown> }, code: string) => {
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body).toMatchObject({ error: code, message: expect.any(String) });
  };

  it('creates, reads, lists, updates, disables, enables and deletes a rule', async () => {
    const created = await acme.mapping(rule({ match: { groupDisplayName: 'Eng', groupExternalId: 'x-1' } }));
    expect(created).toMatchObject({
      connectionId: acme.connectionId,
      match: { groupDisplayName: 'Eng', groupExternalId: 'x-1' },
      enabled: true,
      grantBoundaryStatus: 'configured',
    });
    expect((await operator('GET', `/scim-mappings/${created.id}`)).body).toEqual(created);
    const listed = pageSchema(svcScimMappingSchema).parse(
      (await operator('GET', `/scim-connections/${acme.connectionId}/mappings?limit=50`)).body,
    );
    expect(listed.data.map((mapping) => mapping.id)).toContain(created.id);

    const updated = await operator('PUT', `/scim-mappings/${created.id}`, {
      match: { groupExternalId: 'x-2' },
      resourceId: acme.document,
    });
    expect(updated.body).toMatchObject({
      match: { groupDisplayName: null, groupExternalId: 'x-2' },
      resourceId: acme.document,
    });
    expect((await operator('POST', `/scim-mappings/${created.id}/disable`)).body).toMatchObject({
      enabled: false,
    });
    expect((await operator('POST', `/scim-mappings/${created.id}/enable`)).body).toMatchObject({
      enabled: true,
    });
    expect((await operator('DELETE', `/scim-mappings/${created.id}`)).status).toBe(204);
    expect((await operator('GET', `/scim-mappings/${created.id}`)).status).toBe(404);
    const audit = await t.svc.app.inject({
      method: 'GET',
      url: '/svc/admin/audit/api/events?kind=admin.scim_mapping.*&limit=50',
      headers: t.operator,
    });
    const kinds = (JSON.parse(audit.body) as { data: { kind: string; data: { mappingId: string } }[] }).data
      .filter((event) => event.data.mappingId === created.id)
      .map((event) => event.kind);
    expect(kinds.sort()).toEqual(
      [
        'admin.scim_mapping.created',
        'admin.scim_mapping.updated',
        'admin.scim_mapping.disabled',
        'admin.scim_mapping.enabled',
        'admin.scim_mapping.deleted',
      ].sort(),
    );
  });

  it('grant_boundary_required: an enabled rule on a connection without a boundary; a disabled one is kept', async () => {
    const bare = await t.svc.admin.createScimConnectionAsync({ organizationId: acme.organizationId });
    expectBoundaryError(await post(bare.id, rule()), 'grant_boundary_required');
    const disabled = await post(bare.id, rule({ enabled: false }));
    expect(disabled.status).toBe(201);
    expect(disabled.body).toMatchObject({ enabled: false, grantBoundaryStatus: 'missing' });
    expectBoundaryError(
      await operator('POST', `/scim-mappings/${String(disabled.body.id)}/enable`),
      'grant_boundary_required',
    );
    // In process: the same refusal, as SvcGrantBoundaryError with its code.
    const typed = {
      displayName: 'In process',
      match: { groupDisplayName: 'Engineering' },
      roleId: acme.model.viewer,
      resourceId: acme.project,
    };
    await expect(t.svc.admin.createScimMappingAsync(bare.id, typed)).rejects.toSatisfy(
      (error) => error instanceof SvcGrantBoundaryError && error.code === 'grant_boundary_required',
    );
  });

  it('grant_boundary_invalid: a boundary id longer than 256 characters', async () => {
    const bare = await t.svc.admin.createScimConnectionAsync({ organizationId: acme.organizationId });
    expectBoundaryError(
      await operator('PUT', `/scim-connections/${bare.id}`, { grantBoundaryResourceId: 'r'.repeat(257) }),
      'grant_boundary_invalid',
    );
  });

  it('grant_boundary_not_found: the boundary names no resource', async () => {
    const lost = await t.svc.admin.createScimConnectionAsync({
      organizationId: acme.organizationId,
      grantBoundaryResourceId: 'frs_nowhere',
    });
    expectBoundaryError(await post(lost.id, rule()), 'grant_boundary_not_found');
    expect((await post(lost.id, rule({ enabled: false }))).body).toMatchObject({
      grantBoundaryStatus: 'not_found',
    });
  });

  it('resource_outside_grant_boundary: on create, update and enable', async () => {
    expectBoundaryError(
      await post(acme.connectionId, rule({ resourceId: acme.outside })),
      'resource_outside_grant_boundary',
    );
    const inside = await acme.mapping(rule());
    expectBoundaryError(
      await operator('PUT', `/scim-mappings/${inside.id}`, { resourceId: acme.outside }),
      'resource_outside_grant_boundary',
    );
    expect((await operator('GET', `/scim-mappings/${inside.id}`)).body).toMatchObject({
      resourceId: acme.project,
    });
    const parked = await post(acme.connectionId, rule({ resourceId: acme.outside, enabled: false }));
    expect(parked.body).toMatchObject({ grantBoundaryStatus: 'outside_boundary' });
    expectBoundaryError(
      await operator('POST', `/scim-mappings/${String(parked.body.id)}/enable`),
      'resource_outside_grant_boundary',
    );
  });

  it('grant_boundary_hierarchy_invalid: a resource deeper than the tree allows, or on a cycle', async () => {
    // Written past the FGA service, which refuses both: only a damaged database holds them.
    const deep = await seedFgaTree(t.svc.database.db, {
      typeId: acme.model.documentType,
      fanout: Array.from({ length: 33 }, () => 1),
      prefix: `${kind}deep`,
      at: t.clock.now(),
    });
    const deepBoundary = await t.svc.admin.createScimConnectionAsync({
      organizationId: acme.organizationId,
      grantBoundaryResourceId: deep.rootId,
    });
    expectBoundaryError(
      await post(deepBoundary.id, rule({ resourceId: deep.leaves[0] })),
      'grant_boundary_hierarchy_invalid',
    );

    const fga = fgaApi(t.svc);
    const top = await fga.create('/resources', { name: 'Loop top', typeId: acme.model.projectType });
    const below = await fga.create('/resources', {
      name: 'Loop below',
      typeId: acme.model.projectType,
      parentId: top,
    });
    await sql`update fga_resources set parent_id = ${below} where id = ${top}`.execute(t.svc.database.db);
    const loop = await t.svc.admin.createScimConnectionAsync({
      organizationId: acme.organizationId,
      grantBoundaryResourceId: top,
    });
    expectBoundaryError(await post(loop.id, rule({ resourceId: below })), 'grant_boundary_hierarchy_invalid');
    expect((await post(loop.id, rule({ resourceId: below, enabled: false }))).body).toMatchObject({
      grantBoundaryStatus: 'hierarchy_invalid',
    });
  });

  it('names an unknown role or resource, refuses a match without a field, and 404s unknown ids', async () => {
    for (const [body, field] of [
      [rule({ roleId: 'fdf_nope' }), 'roleId'],
      [rule({ resourceId: 'frs_nope' }), 'resourceId'],
      [rule({ match: {} }), 'match'],
    ] as const) {
      const answer = await post(acme.connectionId, body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(400);
      expect(JSON.stringify(answer.body)).toContain(field);
    }
    expect((await post('scim_nope', rule())).status).toBe(404);
    expect((await operator('GET', '/scim-connections/scim_nope/mappings')).status).toBe(404);
    expect((await operator('PUT', '/scim-mappings/smr_nope', { enabled: false })).status).toBe(404);
    expect((await operator('POST', '/scim-mappings/smr_nope/disable')).status).toBe(404);
  });
});
