import { auditEventPageSchema, pageSchema, svcScimSyncEventSchema } from '@svc/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../test-support/databases.js';
import { givenActiveDomainClaim } from '../test-support/federation/sso-connections.js';
import { createFgaUser, fgaApi } from '../test-support/fga-api.js';
import { GROUP_SCHEMA, PATCH_SCHEMA, scimUser } from '../test-support/scim.js';
import { mappingTenant, operatorApi, type MappingTenant } from '../test-support/scim-mappings.js';
import { createTestSvc, type TestSvc } from '../test-support/test-svc.js';

/**
 * The grants of SCIM mapping rules on both databases, each checked right after the answer that must
 * have made or ended it: SCIM pushes grant, and removals, deprovisioning, rule, boundary and connection
 * changes revoke, in the connection's organization only; pushes a rule cannot serve still succeed and
 * leave a failed sync event and an audit event.
 */
describeEachDatabase('SCIM mapping rule grants', (kind) => {
  let t: TestSvc;
  let operator: ReturnType<typeof operatorApi>;
  let fga: ReturnType<typeof fgaApi>;

  beforeAll(async () => {
    t = await createTestSvc(kind);
    operator = operatorApi(t.svc);
    fga = fgaApi(t.svc);
  });
  afterAll(async () => {
    await t.close();
  });

  const managedGrants = async (tenant: MappingTenant) => {
    const listed = await fga.call('GET', `/grants?managedBy=scim:${tenant.connectionId}&limit=200`);
    return (listed.body.data as { subject: { id: string }; roleId: string; resourceId: string }[]).map(
      (grant) => `${grant.subject.id} ${grant.roleId} ${grant.resourceId}`,
    );
  };
  const readsProject = (tenant: MappingTenant) => ({
    displayName: 'Engineering reads P',
    match: { groupDisplayName: 'engineering' },
    roleId: tenant.model.viewer,
    resourceId: tenant.project,
  });
  const syncEvents = async (tenant: MappingTenant) =>
    pageSchema(svcScimSyncEventSchema).parse(
      (await operator('GET', `/scim-connections/${tenant.connectionId}/sync-events?outcome=failed&limit=50`))
        .body,
    ).data;
  const auditOf = async (eventKind: string) => {
    const response = await t.svc.app.inject({
      method: 'GET',
      url: `/svc/admin/audit/api/events?kind=${eventKind}&limit=50`,
      headers: t.operator,
    });
    return auditEventPageSchema.parse(JSON.parse(response.body)).data;
  };

  it('a member added by PATCH can read before the answer returns, and a removal ends it before its answer', async () => {
    const acme = await mappingTenant(t.svc, 'Patch');
    await acme.mapping(readsProject(acme));
    const ann = await acme.user('ann');
    const group = await acme.group('Engineering');
    expect(await acme.canRead(ann, acme.document)).toBe(false);

    await acme.members(group, 'add', ann);
    expect(await acme.canRead(ann, acme.document)).toBe(true);
    expect(
      (await fga.accessTest({ subjectId: ann, resourceId: acme.document, permissionKey: acme.model.read }))
        .allowed,
    ).toBe(true);
    expect(await managedGrants(acme)).toEqual([`${ann} ${acme.model.viewer} ${acme.project}`]);
    expect(await acme.canRead(ann, acme.root)).toBe(false);

    await acme.members(group, 'remove', ann);
    expect(await acme.canRead(ann, acme.document)).toBe(false);
    expect(
      (await fga.accessTest({ subjectId: ann, resourceId: acme.document, permissionKey: acme.model.read }))
        .allowed,
    ).toBe(false);
    expect(await managedGrants(acme)).toEqual([]);
  });

  it('a group created with members grants them; DELETE of the group revokes; a grant two groups justify stays while one does', async () => {
    const acme = await mappingTenant(t.svc, 'Groups');
    await acme.mapping(readsProject(acme));
    await acme.mapping({
      ...readsProject(acme),
      displayName: 'By externalId',
      match: { groupExternalId: 'ops-1' },
    });
    const bob = await acme.user('bob');
    const cyd = await acme.user('cyd');
    const engineering = await acme.group('Engineering', [bob, cyd]);
    const ops = await acme.group('Operations', [bob], 'ops-1');
    expect(await acme.canRead(bob, acme.project)).toBe(true);
    expect(await acme.canRead(cyd, acme.project)).toBe(true);

    expect((await acme.call('DELETE', `/Groups/${engineering}`)).status).toBe(204);
    expect(await acme.canRead(cyd, acme.project)).toBe(false);
    expect(await acme.canRead(bob, acme.project)).toBe(true);
    await acme.members(ops, 'remove', bob);
    expect(await acme.canRead(bob, acme.project)).toBe(false);
  });

  it('a renamed group stops matching at once; a rule disabled, updated or deleted revokes before it answers', async () => {
    const acme = await mappingTenant(t.svc, 'Rules');
    const mapping = await acme.mapping(readsProject(acme));
    const dan = await acme.user('dan');
    const group = await acme.group('Engineering', [dan]);
    const rename = (displayName: string) =>
      acme.call('PATCH', `/Groups/${group}`, {
        schemas: [PATCH_SCHEMA],
        Operations: [{ op: 'replace', path: 'displayName', value: displayName }],
      });
    expect((await rename('Platform')).status).toBe(204);
    expect(await acme.canRead(dan, acme.project)).toBe(false);
    expect((await rename('ENGINEERING')).status).toBe(204);
    expect(await acme.canRead(dan, acme.project)).toBe(true);

    // Disabled: revoked at once; enabled again: nothing until the IdP pushes the group.
    await operator('POST', `/scim-mappings/${mapping.id}/disable`);
    expect(await acme.canRead(dan, acme.project)).toBe(false);
    await operator('POST', `/scim-mappings/${mapping.id}/enable`);
    expect(await acme.canRead(dan, acme.project)).toBe(false);
    const resync = await acme.call('PUT', `/Groups/${group}`, {
      schemas: [GROUP_SCHEMA],
      displayName: 'Engineering',
      members: [{ value: dan }],
    });
    expect(resync.status).toBe(200);
    expect(await acme.canRead(dan, acme.project)).toBe(true);

    // Updated to the document: the project grant goes at once, the document's comes with the next push.
    await operator('PUT', `/scim-mappings/${mapping.id}`, { resourceId: acme.document });
    expect(await acme.canRead(dan, acme.project)).toBe(false);
    expect(await acme.canRead(dan, acme.document)).toBe(false);
    expect((await rename('Engineering')).status).toBe(204);
    expect(await acme.canRead(dan, acme.document)).toBe(true);

    expect((await operator('DELETE', `/scim-mappings/${mapping.id}`)).status).toBe(204);
    expect(await acme.canRead(dan, acme.document)).toBe(false);
    expect(await managedGrants(acme)).toEqual([]);
  });

  it('a boundary change revokes the rules now outside it; disabling the connection revokes every grant, and enabling it gives none back', async () => {
    const acme = await mappingTenant(t.svc, 'Bounds');
    await acme.mapping(readsProject(acme));
    await acme.mapping({ ...readsProject(acme), displayName: 'Document', resourceId: acme.document });
    const eve = await acme.user('eve');
    const group = await acme.group('Engineering', [eve]);
    expect(await managedGrants(acme)).toHaveLength(2);

    await operator('PUT', `/scim-connections/${acme.connectionId}`, {
      grantBoundaryResourceId: acme.document,
    });
    expect(await managedGrants(acme)).toEqual([`${eve} ${acme.model.viewer} ${acme.document}`]);
    expect(await acme.canRead(eve, acme.document)).toBe(true);
    const rules = (await operator('GET', `/scim-connections/${acme.connectionId}/mappings`)).body.data as {
      resourceId: string;
      grantBoundaryStatus: string;
    }[];
    expect(Object.fromEntries(rules.map((rule) => [rule.resourceId, rule.grantBoundaryStatus]))).toEqual({
      [acme.project]: 'outside_boundary',
      [acme.document]: 'configured',
    });

    await operator('POST', `/scim-connections/${acme.connectionId}/disable`);
    expect(await managedGrants(acme)).toEqual([]);
    expect(await acme.canRead(eve, acme.document)).toBe(false);
    await operator('POST', `/scim-connections/${acme.connectionId}/enable`);
    expect(await acme.canRead(eve, acme.document)).toBe(false);
    await acme.members(group, 'add', eve);
    expect(await acme.canRead(eve, acme.document)).toBe(true);
  });

  it('a resource an operator moves out of the boundary loses its grants with the move; a move inside, or of the boundary itself, keeps them', async () => {
    const acme = await mappingTenant(t.svc, 'Moves');
    await acme.mapping(readsProject(acme));
    const kim = await acme.user('kim');
    await acme.group('Engineering', [kim]);
    const folder = await fga.create('/resources', {
      name: 'Moves/F',
      typeId: acme.model.projectType,
      parentId: acme.root,
    });
    const move = async (resourceId: string, parentId: string) =>
      expect((await fga.call('PATCH', `/resources/${resourceId}`, { parentId })).status).toBe(200);
    const held = [`${kim} ${acme.model.viewer} ${acme.project}`];

    await move(acme.project, folder);
    expect(await managedGrants(acme)).toEqual(held);
    await move(acme.root, acme.outside);
    expect(await managedGrants(acme)).toEqual(held);
    expect(await acme.canRead(kim, acme.document)).toBe(true);

    // The project's parent leaves the boundary: the grant on the project below it goes with the move.
    await move(folder, acme.outside);
    expect(await managedGrants(acme)).toEqual([]);
    expect(await acme.canRead(kim, acme.document)).toBe(false);
    expect(
      (await fga.accessTest({ subjectId: kim, resourceId: acme.document, permissionKey: acme.model.read }))
        .allowed,
    ).toBe(false);
    expect(await syncEvents(acme)).toEqual([
      expect.objectContaining({
        kind: 'scim.grant.outside_boundary',
        outcome: 'failed',
        data: expect.objectContaining({
          cause: 'resource_moved',
          resourceId: folder,
          grantBoundaryResourceId: acme.root,
          revokedGrants: 1,
        }),
      }),
    ]);
    const revoked = (await auditOf('fga.grant.revoked')).filter(
      (event) => event.data.managedBy === `scim:${acme.connectionId}`,
    );
    expect(revoked).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ reason: 'fga_resource_moved' }) }),
    ]);
  });

  it('deprovisioning ends the grants of that organization only; operator grants and other organizations keep theirs', async () => {
    const acme = await mappingTenant(t.svc, 'Home');
    const other = await mappingTenant(t.svc, 'Away', acme.model);
    await acme.mapping(readsProject(acme));
    await other.mapping(readsProject(other));
    // One account in both organizations: Home proved home.test, so the second connection links the address.
    await givenActiveDomainClaim(t, acme.organizationId, 'home.test');
    const fay = await acme.user('fay');
    const linked = await other.call('POST', '/Users', scimUser('fay@home.test'));
    expect(linked.body?.id).toBe(fay);
    await acme.group('Engineering', [fay]);
    await other.group('Engineering', [fay]);
    await fga.create('/grants', { subjectId: fay, roleId: acme.model.editor, resourceId: acme.document });
    expect(await acme.canRead(fay, acme.project)).toBe(true);
    expect(await other.canRead(fay, other.project)).toBe(true);

    const deprovisioned = await acme.call('PATCH', `/Users/${fay}`, {
      schemas: [PATCH_SCHEMA],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(deprovisioned.status).toBe(200);
    expect(await acme.canRead(fay, acme.project)).toBe(false);
    expect(await managedGrants(acme)).toEqual([]);
    expect(await other.canRead(fay, other.project)).toBe(true);
    expect(await managedGrants(other)).toEqual([`${fay} ${acme.model.viewer} ${other.project}`]);
    // The operator's own grant is no rule's to revoke.
    expect(await acme.canRead(fay, acme.document)).toBe(true);

    expect((await other.call('DELETE', `/Users/${fay}`)).status).toBe(204);
    expect(await other.canRead(fay, other.project)).toBe(false);
  });

  it('a push a rule cannot serve succeeds, grants nothing, and leaves a failed sync event and an audit event', async () => {
    const acme = await mappingTenant(t.svc, 'Outside');
    const gus = await acme.user('gus');
    await acme.mapping(readsProject(acme));
    // The boundary moves under the project: the rule is outside it now.
    await operator('PUT', `/scim-connections/${acme.connectionId}`, {
      grantBoundaryResourceId: acme.document,
    });
    const group = await acme.group('Engineering', [gus]);
    expect(await acme.canRead(gus, acme.project)).toBe(false);
    expect(await managedGrants(acme)).toEqual([]);
    const [outside] = await syncEvents(acme);
    expect(outside).toMatchObject({
      kind: 'scim.grant.outside_boundary',
      outcome: 'failed',
      resourceType: 'Group',
      resourceId: group,
      data: { resourceId: acme.project, grantBoundaryResourceId: acme.document },
    });
    expect(
      (await auditOf('scim.grant.outside_boundary')).filter(
        (event) => event.organizationId === acme.organizationId,
      ),
    ).toHaveLength(1);

    // The boundary resource deleted: it reads not_found, and a push records boundary_missing.
    const other = await mappingTenant(t.svc, 'Missing', acme.model);
    await other.mapping({ ...readsProject(other), resourceId: other.root });
    const leaf = await fga.create('/resources', { name: 'Leaf', typeId: acme.model.documentType });
    await operator('PUT', `/scim-connections/${other.connectionId}`, { grantBoundaryResourceId: leaf });
    expect((await fga.call('DELETE', `/resources/${leaf}`)).status).toBe(204);
    const hal = await other.user('hal');
    const pushed = await other.group('Engineering', [hal]);
    expect(await other.canRead(hal, other.project)).toBe(false);
    expect(await syncEvents(other)).toEqual([
      expect.objectContaining({ kind: 'scim.grant.boundary_missing', outcome: 'failed', resourceId: pushed }),
    ]);
    const audited = await auditOf('scim.grant.boundary_missing');
    expect(audited.filter((event) => event.organizationId === other.organizationId)).toHaveLength(1);
  });

  it('a rule whose role was deleted grants nothing, and its pushes succeed with a failed sync event', async () => {
    const acme = await mappingTenant(t.svc, 'Roleless');
    const role = await fga.create('/roles', {
      key: `${kind}.roleless`,
      name: 'Soon gone',
      permissionKeys: [acme.model.read],
    });
    await acme.mapping({ ...readsProject(acme), roleId: role });
    expect((await fga.call('DELETE', `/roles/${role}`)).status).toBe(204);
    const jo = await acme.user('jo');
    const group = await acme.group('Engineering', [jo]);
    expect(await acme.canRead(jo, acme.project)).toBe(false);
    expect(await syncEvents(acme)).toEqual([
      expect.objectContaining({ kind: 'scim.grant.role_missing', outcome: 'failed', resourceId: group }),
    ]);
  });

  it('an operator grant of the same role stays when the managed one goes', async () => {
    const acme = await mappingTenant(t.svc, 'Mixed');
    await acme.mapping(readsProject(acme));
    const ivy = await acme.user('ivy');
    const group = await acme.group('Engineering', [ivy]);
    await fga.create('/grants', { subjectId: ivy, roleId: acme.model.viewer, resourceId: acme.project });
    await acme.members(group, 'remove', ivy);
    expect(await managedGrants(acme)).toEqual([]);
    expect(await acme.canRead(ivy, acme.project)).toBe(true);
    // An FGA user that is no SCIM user is nobody's to map.
    expect(await acme.canRead(await createFgaUser(t.svc, `${kind}-stranger`), acme.project)).toBe(false);
  });
});
